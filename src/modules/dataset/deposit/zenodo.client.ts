// A client of the Zenodo REST deposit API (decisions section 4): create a deposition, upload
// each file to its bucket, set the metadata, publish, read the DOI. Every failure becomes a
// DepositError; a draft left behind by a failed push is discarded on a best-effort basis.
// A published record's metadata is changed through an edit (open, set, publish; discarded on failure).
// The draft about to be published is handed to the request's onDraft first, so that a publish whose
// answer never arrived can be settled later (settlePending) rather than made a second time.
import { Readable } from 'node:stream';
import {
  DepositError, type DepositFile, type DepositRepository, type DepositRequest, type DepositResult, type DepositStep,
} from './deposit.types.ts';
import { withoutFinalStop } from '../../../core/text.ts';

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
  /** True once published (also while an edit of the published record is open). */
  submitted?: boolean;
  /** `unsubmitted` (a draft), `inprogress` (an open edit), `done` (published). */
  state?: string;
  links?: { bucket?: string; latest_draft?: string; [key: string]: string | undefined };
  doi?: string;
  conceptdoi?: string;
  files?: { id?: string; filename?: string }[];
  metadata?: { doi?: string; prereserve_doi?: { doi?: string } };
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;

/** Zenodo answers 404 for a deposition that never existed or was deleted, 410 for some deleted ones. */
function isGone(error: unknown): boolean {
  return error instanceof DepositError && (error.status === 404 || error.status === 410);
}

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
  const related = [
    ...(request.publicationDoi ? [{ identifier: request.publicationDoi, relation: 'isSupplementTo', scheme: 'doi' }] : []),
    ...(request.relatedIdentifiers ?? []),
  ];
  if (related.length > 0) metadata.related_identifiers = related;
  return metadata;
}

/** Zenodo's deposition API (or a server speaking it), one instance per configuration. */
class ZenodoClient implements DepositRepository {
  readonly kind = 'zenodo';
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly uploadTimeoutMs: number;
  private readonly auth: { authorization: string };

  constructor(private readonly options: ZenodoClientOptions) {
    this.base = options.apiUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
    this.auth = { authorization: `Bearer ${options.accessToken}` };
  }

  /** One request; any refusal, timeout or non-2xx answer becomes a DepositError naming the step. */
  private async call(step: DepositStep, url: string, init: RequestInit & { duplex?: 'half' }, limitMs = this.timeoutMs): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers: { ...this.auth, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(limitMs), redirect: 'error' });
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
      // Zenodo's message is a sentence: its own full stop would double ours.
      const said = body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
        ? `: ${withoutFinalStop((body as { message: string }).message.slice(0, 200))}` : '';
      throw new DepositError(step, response.status, `Zenodo refused the ${step} step with status ${response.status}${said}.`);
    }
    return body;
  }

  private async openFile(file: DepositFile): Promise<Readable> {
    const stream = await file.open();
    if (!stream) throw new DepositError('upload', null, `The file ${file.name} could not be read for the deposit.`);
    return stream;
  }

  private async uploadFile(deposition: Deposition, file: DepositFile): Promise<void> {
    const bucket = deposition.links?.bucket;
    if (bucket) {
      // The files API of Zenodo: a raw PUT of the bytes to <bucket>/<name>, streamed from the store.
      await this.call('upload', `${bucket.replace(/\/+$/, '')}/${encodeURIComponent(file.name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(file.size) },
        body: Readable.toWeb(await this.openFile(file)) as unknown as BodyInit,
        duplex: 'half',
      }, this.uploadTimeoutMs);
      return;
    }
    // Older deployments without buckets take a multipart POST on the deposition's files. FormData
    // wants a Blob, so this legacy path holds the file in memory (a model is at most MAX_UPLOAD_BYTES).
    const form = new FormData();
    form.set('name', file.name);
    form.set('file', await new Response(Readable.toWeb(await this.openFile(file)) as unknown as BodyInit).blob(), file.name);
    await this.call('upload', `${this.base}/deposit/depositions/${deposition.id}/files`, { method: 'POST', body: form }, this.uploadTimeoutMs);
  }

  /** Sets the metadata of a draft or of an open edit. */
  private async putMetadata(id: number, request: DepositRequest): Promise<void> {
    await this.call('metadata', `${this.base}/deposit/depositions/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: zenodoMetadata(request, this.options) }),
    });
  }

  private async discard(id: number): Promise<void> {
    try {
      await fetch(`${this.base}/deposit/depositions/${id}`, { method: 'DELETE', headers: this.auth, signal: AbortSignal.timeout(Math.min(this.timeoutMs, 10_000)) });
    } catch {
      // Best effort: an unpublished draft harms nobody and its owner can delete it on Zenodo.
    }
  }

  private async setMetadataAndPublish(id: number, request: DepositRequest): Promise<DepositResult> {
    await this.putMetadata(id, request);
    const published = await this.call('publish', `${this.base}/deposit/depositions/${id}/actions/publish`, { method: 'POST' }) as Deposition | undefined;
    const doi = published?.doi || published?.metadata?.doi;
    if (!doi) throw new DepositError('publish', null, 'Zenodo published the record but answered no DOI.');
    return { depositionId: id, doi, conceptDoi: published?.conceptdoi || null };
  }

  private async discardEdit(id: number): Promise<void> {
    try {
      await this.call('discard', `${this.base}/deposit/depositions/${id}/actions/discard`, { method: 'POST' }, Math.min(this.timeoutMs, 10_000));
    } catch {
      // Best effort: an edit left open changes nothing public; the next edit or the owner on Zenodo closes it.
    }
  }

  async publish(request: DepositRequest): Promise<DepositResult> {
    const created = await this.call('create', `${this.base}/deposit/depositions`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    }) as Deposition | undefined;
    if (!created || typeof created.id !== 'number') {
      throw new DepositError('create', null, 'Zenodo answered the create step without a deposition id.');
    }
    try {
      // Recorded at once, not only before the publish step: a process killed during the uploads
      // then leaves a draft the next publish discards rather than one nobody knows of.
      await request.onDraft?.(created.id);
      for (const file of request.files) await this.uploadFile(created, file);
      return await this.setMetadataAndPublish(created.id, request);
    } catch (error) {
      // Zenodo refuses to delete published records, so this only ever removes an unpublished draft.
      await this.discard(created.id);
      throw error;
    }
  }

  async newVersion(depositionId: number, request: DepositRequest): Promise<DepositResult> {
    // Zenodo answers the published deposition; the new version's draft is behind links.latest_draft.
    const opened = await this.call('newversion', `${this.base}/deposit/depositions/${depositionId}/actions/newversion`, { method: 'POST' }) as Deposition | undefined;
    const draftUrl = opened?.links?.latest_draft;
    if (!draftUrl) throw new DepositError('newversion', null, 'Zenodo opened a new version but answered no link to its draft.');
    let draftId: number | null = null;
    const idInLink = /\/deposit\/depositions\/(\d+)\/?$/.exec(draftUrl);
    if (idInLink) draftId = Number(idInLink[1]);
    try {
      // An open draft blocks every later new version on Zenodo: it is recorded as soon as its id is known.
      if (draftId !== null) await request.onDraft?.(draftId);
      const draft = await this.call('newversion', draftUrl, { method: 'GET' }) as Deposition | undefined;
      if (!draft || typeof draft.id !== 'number') throw new DepositError('newversion', null, 'Zenodo answered the new version\'s draft without an id.');
      if (draft.id !== draftId) await request.onDraft?.(draft.id);
      draftId = draft.id;
      // The draft starts with copies of the previous version's files; the request's files replace them.
      for (const file of draft.files ?? []) {
        if (!file.id) continue;
        await this.call('delete-file', `${this.base}/deposit/depositions/${draft.id}/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
      }
      for (const file of request.files) await this.uploadFile(draft, file);
      return await this.setMetadataAndPublish(draft.id, request);
    } catch (error) {
      // Only the unpublished draft goes; the versions already published stay untouched.
      if (draftId !== null) await this.discard(draftId);
      throw error;
    }
  }

  async updateMetadata(depositionId: number, request: DepositRequest): Promise<DepositResult> {
    await this.call('edit', `${this.base}/deposit/depositions/${depositionId}/actions/edit`, { method: 'POST' });
    try {
      await this.putMetadata(depositionId, request);
      const published = await this.call('publish', `${this.base}/deposit/depositions/${depositionId}/actions/publish`, { method: 'POST' }) as Deposition | undefined;
      const doi = published?.doi || published?.metadata?.doi;
      if (!doi) throw new DepositError('publish', null, 'Zenodo published the new metadata but answered no DOI.');
      return { depositionId, doi, conceptDoi: published?.conceptdoi || null };
    } catch (error) {
      // The published record keeps its former metadata once the open edit is discarded.
      await this.discardEdit(depositionId);
      throw error;
    }
  }

  async settlePending(depositionId: number): Promise<DepositResult | null> {
    const url = `${this.base}/deposit/depositions/${depositionId}`;
    let found: Deposition | undefined;
    try {
      found = await this.call('settle', url, { method: 'GET' }) as Deposition | undefined;
    } catch (error) {
      if (isGone(error)) return null;
      throw error;
    }
    if (!found || typeof found.id !== 'number') throw new DepositError('settle', null, `Zenodo answered the deposition ${depositionId} without an id.`);
    if (found.submitted === true || found.state === 'done') {
      const doi = found.doi || found.metadata?.doi;
      if (!doi) throw new DepositError('settle', null, `Zenodo shows the deposition ${depositionId} published but answered no DOI.`);
      return { depositionId: found.id, doi, conceptDoi: found.conceptdoi || null };
    }
    // Not best effort, unlike after a failed push: a new version's draft left open would make
    // Zenodo refuse the fresh new version that follows.
    try {
      await this.call('discard', url, { method: 'DELETE' });
    } catch (error) {
      if (!isGone(error)) throw error;
    }
    return null;
  }
}

export function createZenodoClient(options: ZenodoClientOptions): DepositRepository {
  return new ZenodoClient(options);
}
