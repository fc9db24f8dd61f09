// What the dataset routes read from requests: ids, the upload form's fields, one uploaded file,
// and how a refused staged file answers. Shared by the staging, upload, edit and API routes.
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { badRequest, payloadTooLarge, type HttpError } from '../../core/http/errors.ts';
import { formFields } from '../../core/http/forms.ts';
import type { StagingError } from './staging/staging.ts';

/** Ids are integers of the database's INTEGER range; anything else names no dataset. */
export function parseId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= 2147483647 ? id : undefined;
}

/** Fields of the upload form, urlencoded or multipart (decisions section 4); files are not taken here. */
export async function uploadFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) return formFields(request.body);
  const fields: Record<string, string> = {};
  // The global multipart limit suits one staged file; a form with 200 models has thousands of fields
  // (and busboy counts them again as parts, 1000 by default).
  for await (const part of request.parts({ limits: { fields: 20000, fieldSize: 100_000, files: 1, parts: 20001 } })) {
    if (part.type === 'file') {
      part.file.resume();
      if (request.csrfPending) await request.checkCsrf(fields.csrf_token);
      throw badRequest('Stage the files through /dataset/file/upload first; this form takes their stored names.', {
        errors: { feature_models: ['Files are staged separately; send their stored names.'] },
      });
    }
    fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
  }
  // Decisions section 3: without the header, the form field csrf_token carries the token.
  if (request.csrfPending) await request.checkCsrf(fields.csrf_token);
  return fields;
}

/** The one part named `file` of a multipart request (staging and the API's file upload), or 400 `{"message"}`. */
export async function receiveFile(request: FastifyRequest): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    // Not multipart, so the guard has already checked the token.
    throw badRequest('Send the model as multipart/form-data in the field "file".', { message: 'Send the model as multipart/form-data in the field "file".' });
  }
  let file: MultipartFile | undefined;
  let fieldToken: string | undefined;
  try {
    // Decisions section 3: the token may be the form field csrf_token, sent before the file part.
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        file = part;
        break;
      }
      if (part.fieldname === 'csrf_token' && typeof part.value === 'string') fieldToken = part.value;
    }
  } catch (error) {
    request.log.info({ err: error }, 'unreadable multipart upload');
    if (request.csrfPending) await request.checkCsrf(fieldToken);
    throw badRequest('The upload could not be read.', { message: 'The upload could not be read.' });
  }
  if (request.csrfPending) {
    try {
      await request.checkCsrf(fieldToken);
    } catch (error) {
      file?.file.resume();
      throw error;
    }
  }
  if (!file || file.fieldname !== 'file') {
    file?.file.resume();
    throw badRequest('No file was sent in the field "file".', { message: 'No file was sent in the field "file".' });
  }
  if (!file.filename) {
    // A part sent with `filename=""` has no name to check or store (it was a 500).
    file.file.resume();
    const message = 'The file was sent without a name: send it under its file name.';
    throw badRequest(message, { message });
  }
  return file;
}

/** A refused staged file (decisions section 4): too large 413, anything else 400, both `{"message"}`. */
export function stagingRefusal(error: StagingError, maxUploadBytes: number): HttpError {
  if (error.kind === 'too_large') {
    const message = `The file is larger than the upload limit of ${Math.floor(maxUploadBytes / 1048576) || maxUploadBytes} ${maxUploadBytes >= 1048576 ? 'MiB' : 'bytes'}.`;
    return payloadTooLarge(message, { message });
  }
  // A file of another format that does not convert carries its reader's line-numbered errors (issue 27).
  return badRequest(error.message, error.errors.length > 0 ? { message: error.message, errors: error.errors } : { message: error.message });
}
