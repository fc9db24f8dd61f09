// What the collection's pages and API share in reading a request.
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../core/http/errors.ts';
import { parseFileId } from '../hubfile/index.ts';

/** The collection id of the path; 404 for anything but a positive id (it names no collection). */
export function collectionIdOf(request: FastifyRequest): number {
  const id = parseFileId(String((request.params as { id?: string }).id ?? ''));
  if (id === undefined) throw notFound('There is no such collection.');
  return id;
}
