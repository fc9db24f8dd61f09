// A client of the Zenodo REST deposit API (decisions section 4): create a deposition, upload
// each file to its bucket, set the metadata, publish, read the DOI. Every failure becomes a
// DepositError; a draft left behind by a failed push is discarded on a best-effort basis.
// A published record's metadata is changed through an edit (open, set, publish; discarded on failure).
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
}

interface Deposition {
  id: number;
  links?: { bucket?: string; latest_draft?: string; [key: string]: string | undefined };
  doi?: string;
  conceptdoi?: string;
  files?: { id?: string; filename?: string }[];
  metadata?: { doi?: string; prereserve_doi?: { doi?: string } };
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;

/** Zenodo's own publication types are the values of decisions section 4, except `none`. */
export function zenodoMetadata(request: DepositRequest, options: Pick<ZenodoClientOptions, 'communities'> = {}) {
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
    // Zenodo's licence vocabulary is keyed by SPDX identifiers written in lower case (cc-by-4.0, mit).
    license: request.license.toLowerCase(),
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

  async function openFile(file: DepositFile): Promise<Readable> {
    const stream = await file.open();
    if (!stream) throw new DepositError('upload', null, `The file ${file.name} could not be read for the deposit.`);
    return stream;
  }

  async function uploadFile(deposition: Deposition, file: DepositFile): Promise<void> {
    const bucket = deposition.links?.bucket;
    if (bucket) {
      // The files API of Zenodo: a raw PUT of the bytes to <bucket>/<name>, streamed from the store.
      await call('upload', `${bucket.replace(/\/+$/, '')}/${encodeURIComponent(file.name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(file.size) },
        body: Readable.toWeb(await openFile(file)) as unknown as BodyInit,
        duplex: 'half',
      }, uploadTimeoutMs);
      return;
    }
    // Older deployments without buckets take a multipart POST on the deposition's files. FormData
    // wants a Blob, so this legacy path holds the file in memory (a model is at most MAX_UPLOAD_BYTES).
    const form = new FormData();
    form.set('name', file.name);
    form.set('file', await new Response(Readable.toWeb(await openFile(file)) as unknown as BodyInit).blob(), file.name);
    await call('upload', `${base}/deposit/depositions/${deposition.id}/files`, { method: 'POST', body: form }, uploadTimeoutMs);
  }

  /** Sets the metadata of a draft or of an open edit. */
  async function putMetadata(id: number, request: DepositRequest): Promise<void> {
    await call('metadata', `${base}/deposit/depositions/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: zenodoMetadata(request, options) }),
    });
  }

  async function discard(id: number): Promise<void> {
    try {
      await fetch(`${base}/deposit/depositions/${id}`, { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(Math.min(timeoutMs, 10_000)) });
    } catch {
      // Best effort: an unpublished draft harms nobody and its owner can delete it on Zenodo.
    }
  }

  async function setMetadataAndPublish(id: number, request: DepositRequest): Promise<DepositResult> {
    await putMetadata(id, request);
    const published = await call('publish', `${base}/deposit/depositions/${id}/actions/publish`, { method: 'POST' }) as Deposition | undefined;
    const doi = published?.doi || published?.metadata?.doi;
    if (!doi) throw new DepositError('publish', null, 'Zenodo published the record but answered no DOI.');
    return { depositionId: id, doi, conceptDoi: published?.conceptdoi || null };
  }

  async function discardEdit(id: number): Promise<void> {
    try {
      await call('discard', `${base}/deposit/depositions/${id}/actions/discard`, { method: 'POST' }, Math.min(timeoutMs, 10_000));
    } catch {
      // Best effort: an edit left open changes nothing public; the next edit or the owner on Zenodo closes it.
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
        return await setMetadataAndPublish(created.id, request);
      } catch (error) {
        // Zenodo refuses to delete published records, so this only ever removes an unpublished draft.
        await discard(created.id);
        throw error;
      }
    },

    async newVersion(depositionId: number, request: DepositRequest): Promise<DepositResult> {
      // Zenodo answers the published deposition; the new version's draft is behind links.latest_draft.
      const opened = await call('newversion', `${base}/deposit/depositions/${depositionId}/actions/newversion`, { method: 'POST' }) as Deposition | undefined;
      const draftUrl = opened?.links?.latest_draft;
      if (!draftUrl) throw new DepositError('newversion', null, 'Zenodo opened a new version but answered no link to its draft.');
      let draftId: number | null = null;
      const idInLink = /\/deposit\/depositions\/(\d+)\/?$/.exec(draftUrl);
      if (idInLink) draftId = Number(idInLink[1]);
      try {
        const draft = await call('newversion', draftUrl, { method: 'GET' }) as Deposition | undefined;
        if (!draft || typeof draft.id !== 'number') throw new DepositError('newversion', null, 'Zenodo answered the new version\'s draft without an id.');
        draftId = draft.id;
        // The draft starts with copies of the previous version's files; the request's files replace them.
        for (const file of draft.files ?? []) {
          if (!file.id) continue;
          await call('delete-file', `${base}/deposit/depositions/${draft.id}/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
        }
        for (const file of request.files) await uploadFile(draft, file);
        return await setMetadataAndPublish(draft.id, request);
      } catch (error) {
        // Only the unpublished draft goes; the versions already published stay untouched.
        if (draftId !== null) await discard(draftId);
        throw error;
      }
    },

    async updateMetadata(depositionId: number, request: DepositRequest): Promise<DepositResult> {
      await call('edit', `${base}/deposit/depositions/${depositionId}/actions/edit`, { method: 'POST' });
      try {
        await putMetadata(depositionId, request);
        const published = await call('publish', `${base}/deposit/depositions/${depositionId}/actions/publish`, { method: 'POST' }) as Deposition | undefined;
        const doi = published?.doi || published?.metadata?.doi;
        if (!doi) throw new DepositError('publish', null, 'Zenodo published the new metadata but answered no DOI.');
        return { depositionId, doi, conceptDoi: published?.conceptdoi || null };
      } catch (error) {
        // The published record keeps its former metadata once the open edit is discarded.
        await discardEdit(depositionId);
        throw error;
      }
    },
  };
}
