// A client of the Zenodo REST deposit API (decisions section 4): create a deposition, upload
// each file to its bucket, set the metadata, publish, read the DOI. Every failure becomes a
// DepositError; a draft left behind by a failed push is discarded on a best-effort basis.
import { createReadStream, openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DepositError, type DepositFile, type DepositRepository, type DepositRequest, type DepositResult, type DepositStep,
} from './deposit.types.ts';

export interface ZenodoClientOptions {
  /** The API base, e.g. https://sandbox.zenodo.org/api (no trailing slash needed). */
  apiUrl: string;
  accessToken: string;
  /** Limit for each JSON request. */
  timeoutMs?: number;
  /** Limit for each file upload. */
  uploadTimeoutMs?: number;
  /** Zenodo community identifiers the record is submitted to (optional). */
  communities?: string[];
  /** A license identifier known to Zenodo. */
  license?: string;
}

interface Deposition {
  id: number;
  links?: { bucket?: string; [key: string]: string | undefined };
  doi?: string;
  metadata?: { doi?: string; prereserve_doi?: { doi?: string } };
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;

/** Zenodo's own publication types are the values of decisions section 4, except `none`. */
export function zenodoMetadata(request: DepositRequest, options: Pick<ZenodoClientOptions, 'communities' | 'license'> = {}) {
  const isPublication = request.publicationType !== 'none';
  const metadata: Record<string, unknown> = {
    title: request.title,
    upload_type: isPublication ? 'publication' : 'dataset',
    ...(isPublication ? { publication_type: request.publicationType } : {}),
    description: request.description,
    creators: request.creators.map((c) => ({
      name: c.name,
      ...(c.affiliation ? { affiliation: c.affiliation } : {}),
      ...(c.orcid ? { orcid: c.orcid } : {}),
    })),
    keywords: [...request.tags, 'uvlhub'],
    access_right: 'open',
    license: options.license ?? 'CC-BY-4.0',
  };
  if (options.communities && options.communities.length > 0) {
    metadata.communities = options.communities.map((identifier) => ({ identifier }));
  }
  if (request.publicationDoi) {
    metadata.related_identifiers = [{ identifier: request.publicationDoi, relation: 'isSupplementTo', scheme: 'doi' }];
  }
  return metadata;
}

export function createZenodoClient(options: ZenodoClientOptions): DepositRepository {
  const base = options.apiUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const auth = { authorization: `Bearer ${options.accessToken}` };

  /** One request; any refusal, timeout or non-2xx answer becomes a DepositError naming the step. */
  async function call(step: DepositStep, url: string, init: RequestInit & { duplex?: 'half' }, limitMs = timeoutMs): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(limitMs), redirect: 'error' });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new DepositError(step, null, `Zenodo did not answer within ${Math.round(limitMs / 1000)} s (${step}).`, { cause: error });
      }
      throw new DepositError(step, null, `Zenodo could not be reached (${step}).`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new DepositError(step, response.status, `Zenodo's answer was cut off (${step}).`, { cause: error });
    }
    let body: unknown = undefined;
    if (text) {
      try { body = JSON.parse(text); } catch { body = undefined; }
    }
    if (!response.ok) {
      const said = body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
        ? `: ${(body as { message: string }).message.slice(0, 200)}` : '';
      throw new DepositError(step, response.status, `Zenodo refused the ${step} step with status ${response.status}${said}.`);
    }
    return body;
  }

  async function uploadFile(deposition: Deposition, file: DepositFile): Promise<void> {
    const bucket = deposition.links?.bucket;
    if (bucket) {
      // The files API of Zenodo: a raw PUT of the bytes to <bucket>/<name>, streamed from disk.
      await call('upload', `${bucket.replace(/\/+$/, '')}/${encodeURIComponent(file.name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(file.size) },
        body: Readable.toWeb(createReadStream(file.path)) as unknown as BodyInit,
        duplex: 'half',
      }, uploadTimeoutMs);
      return;
    }
    // Older deployments without buckets take a multipart POST on the deposition's files.
    const form = new FormData();
    form.set('name', file.name);
    form.set('file', await openAsBlob(file.path), file.name);
    await call('upload', `${base}/deposit/depositions/${deposition.id}/files`, { method: 'POST', body: form }, uploadTimeoutMs);
  }

  async function discard(id: number): Promise<void> {
    try {
      await fetch(`${base}/deposit/depositions/${id}`, { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(Math.min(timeoutMs, 10_000)) });
    } catch {
      // Best effort: an unpublished draft harms nobody and its owner can delete it on Zenodo.
    }
  }

  return {
    kind: 'zenodo',
    async publish(request: DepositRequest): Promise<DepositResult> {
      const created = await call('create', `${base}/deposit/depositions`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
      }) as Deposition | undefined;
      if (!created || typeof created.id !== 'number') {
        throw new DepositError('create', null, 'Zenodo answered the create step without a deposition id.');
      }
      try {
        for (const file of request.files) await uploadFile(created, file);
        await call('metadata', `${base}/deposit/depositions/${created.id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ metadata: zenodoMetadata(request, options) }),
        });
        const published = await call('publish', `${base}/deposit/depositions/${created.id}/actions/publish`, { method: 'POST' }) as Deposition | undefined;
        const doi = published?.doi || published?.metadata?.doi;
        if (!doi) throw new DepositError('publish', null, 'Zenodo published the record but answered no DOI.');
        return { depositionId: created.id, doi };
      } catch (error) {
        // Zenodo refuses to delete published records, so this only ever removes an unpublished draft.
        await discard(created.id);
        throw error;
      }
    },
  };
}
