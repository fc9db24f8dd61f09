// The API's file object (extensions section 3: `GET /api/v1/files/<id>` and the answer of a file
// added to a dataset): the REST dataset object's `{file_id, file_name, size}` and more.
import type { StoredFile } from './hubfile.service.ts';

export function restFile(file: StoredFile, domain: string) {
  return {
    file_id: file.id,
    file_name: file.name,
    size: file.sizeHuman,
    size_in_bytes: file.size,
    checksum: file.checksum,
    dataset_id: file.datasetId,
    view: `http://${domain}/file/view/${file.id}`,
    download: `http://${domain}/file/download/${file.id}`,
    // Issue 27: a model converted from another format names its original and what was lost.
    ...(file.original ? {
      original: {
        name: file.original.name, format: file.original.format, size: file.original.size, sha256: file.original.sha256,
        download: `http://${domain}/file/original/${file.id}`,
      },
      losses: file.original.losses,
    } : {}),
  };
}

/** The JSON schema of restFile's answer, for the routes' response schemas and the OpenAPI document. */
export const restFileSchema = {
  type: 'object',
  required: ['file_id', 'file_name', 'size', 'size_in_bytes', 'checksum', 'dataset_id', 'view', 'download'],
  properties: {
    file_id: { type: 'integer' },
    file_name: { type: 'string' },
    size: { type: 'string', description: 'Human-readable, e.g. "1.2 KB".' },
    size_in_bytes: { type: 'integer' },
    checksum: { type: 'string', description: 'MD5 of the content, hexadecimal.' },
    dataset_id: { type: 'integer' },
    view: { type: 'string', description: 'JSON {success, content} with the UVL source.' },
    download: { type: 'string' },
    original: {
      type: 'object',
      description: 'Only for a model converted from another format on upload: the file as uploaded, stored beside the UVL.',
      required: ['name', 'format', 'size', 'sha256', 'download'],
      properties: {
        name: { type: 'string' },
        format: { type: 'string', enum: ['featureide', 'sxfm', 'glencoe'] },
        size: { type: 'integer' },
        sha256: { type: 'string' },
        download: { type: 'string' },
      },
    },
    losses: { type: 'array', items: { type: 'string' }, description: 'Only with original: what the conversion could not carry over (empty: nothing was lost).' },
  },
} as const;
