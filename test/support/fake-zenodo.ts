// A real local HTTP server speaking the part of the Zenodo REST deposit API the hub uses:
// create a deposition, upload files to its bucket (or the older multipart files endpoint),
// set the metadata, publish, delete a draft, open a new version of a published record (newversion,
// latest_draft, deleting the draft's copied files), edit a published record's metadata (open an
// edit, set the metadata, publish again or discard the edit), and read a deposition (GET: its
// `submitted`, `state`, DOI and concept DOI). Failures can be injected per step (an error status, or
// no answer at all), answers can be lost after the step was carried out, and a test can run its own
// steps before a step or before its answer (stepAt), so that the production client can be tested
// unchanged. It also serves published records through the public records API
// (GET /api/records/<id> and each file's content), which the import from a URL reads.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export type FakeZenodoStep = 'create' | 'upload' | 'metadata' | 'publish' | 'edit' | 'discard' | 'newversion' | 'delete-file'
  /** GET and DELETE of one deposition. */
  | 'get' | 'delete';

export interface FakeDeposition {
  id: number;
  bucket: string;
  /** The uploaded files; `body` their bytes, so tests can read what was deposited. */
  files: Map<string, { size: number; md5: string; id: string; body: Buffer }>;
  metadata: Record<string, any> | null;
  published: boolean;
  deleted: boolean;
  doi: string | null;
  /** An edit of the published record is open: the metadata may change until it is published or discarded. */
  editing: boolean;
  /** The published metadata while an edit is open (what a discard restores). */
  publishedMetadata: Record<string, any> | null;
  /** The record id shared by all versions; its DOI (`conceptdoi`) is given at the first publish. */
  conceptRecid: number;
  conceptDoi: string | null;
}

export interface FakeZenodo {
  /** The API base to put in ZENODO_API_URL, e.g. http://127.0.0.1:1234/api. */
  url: string;
  token: string;
  depositions: Map<number, FakeDeposition>;
  /** Every request received, in order. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Makes every later request of this step answer `status` (or never answer, with 'hang'). */
  failOn(step: FakeZenodoStep, status: number | 'hang'): void;
  /**
   * Carries out every later request of this step, then answers `status` (or nothing, with 'hang'):
   * the client never learns it was done. Once it was, the steps of `thenFail` answer 503 (Zenodo
   * unable to tell what it did either).
   */
  loseAnswer(step: FakeZenodoStep, status: number | 'hang', thenFail?: FakeZenodoStep[]): void;
  /**
   * A published record anyone may read through the records API (GET /api/records/<id> and its
   * files' content), as the import from a URL reads a Zenodo record (extensions section 13).
   */
  addRecord(files: { key: string; body: string | Buffer }[]): { id: number; doi: string; page: string };
  /**
   * The next request of this step waits for `action` before it is carried out ('before', the
   * default), or is carried out and waits for it before its answer goes ('after'): a test puts its
   * own steps (another request, a change in the database) at that point of a deposit.
   */
  stepAt(step: FakeZenodoStep, action: () => Promise<unknown>, at?: 'before' | 'after'): void;
  /** Answers depositions without a bucket link, so clients use the multipart files endpoint. */
  withoutBucket(value: boolean): void;
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A response that, once the step is carried out (its end), runs `action` and only then goes. */
function deferredResponse(real: ServerResponse, action: () => Promise<unknown>): ServerResponse {
  let head: Parameters<ServerResponse['writeHead']> | undefined;
  const deferred = {
    writeHead: (...args: Parameters<ServerResponse['writeHead']>) => { head = args; return deferred; },
    end: (body?: string) => {
      void action().catch(() => undefined).then(() => (head ? real.writeHead(...head) : real).end(body));
      return deferred;
    },
  };
  return deferred as unknown as ServerResponse;
}

/** A response nobody receives: its end calls `ended` instead (the real answer is lost). */
function mutedResponse(ended: () => void): ServerResponse {
  const muted = { writeHead: () => muted, end: () => { ended(); return muted; } };
  return muted as unknown as ServerResponse;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

export async function startFakeZenodo(options: { token?: string } = {}): Promise<FakeZenodo> {
  const token = options.token ?? `fake-token-${randomUUID()}`;
  const depositions = new Map<number, FakeDeposition>();
  const requests: FakeZenodo['requests'] = [];
  const failures = new Map<FakeZenodoStep, number | 'hang'>();
  const lostAnswers = new Map<FakeZenodoStep, { status: number | 'hang'; thenFail: FakeZenodoStep[] }>();
  const steps = new Map<FakeZenodoStep, { action: () => Promise<unknown>; at: 'before' | 'after' }>();
  let bucketLinks = true;
  let nextId = 1000;
  let origin = '';
  const records = new Map<number, { doi: string; files: { key: string; body: Buffer }[] }>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => send(res, 500, { status: 500, message: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const method = req.method ?? 'GET';
    requests.push({ method, path, authorization: req.headers.authorization });
    // Published records are public: no token, as on Zenodo.
    const recordPath = method === 'GET' ? /^\/api\/records\/(\d+)(?:\/files\/([^/]+)\/content)?$/.exec(path) : null;
    if (recordPath) return answerRecord(res, Number(recordPath[1]), recordPath[2] === undefined ? undefined : decodeURIComponent(recordPath[2]));
    if (req.headers.authorization !== `Bearer ${token}`) {
      await readBody(req);
      return send(res, 401, { status: 401, message: 'The server could not verify that you are authorized to access the URL requested.' });
    }
    let match: RegExpExecArray | null;
    const step: FakeZenodoStep | null =
      method === 'POST' && path === '/api/deposit/depositions' ? 'create'
        : (method === 'PUT' && path.startsWith('/api/files/')) || (method === 'POST' && /\/files$/.test(path)) ? 'upload'
          : method === 'PUT' && /^\/api\/deposit\/depositions\/\d+$/.test(path) ? 'metadata'
            : method === 'POST' && /\/actions\/publish$/.test(path) ? 'publish'
              : method === 'POST' && /\/actions\/edit$/.test(path) ? 'edit'
                : method === 'POST' && /\/actions\/discard$/.test(path) ? 'discard'
                  : method === 'POST' && /\/actions\/newversion$/.test(path) ? 'newversion'
                    : method === 'DELETE' && /^\/api\/deposit\/depositions\/\d+\/files\/[^/]+$/.test(path) ? 'delete-file'
                      : method === 'GET' && /^\/api\/deposit\/depositions\/\d+$/.test(path) ? 'get'
                        : method === 'DELETE' && /^\/api\/deposit\/depositions\/\d+$/.test(path) ? 'delete' : null;
    const held = step ? steps.get(step) : undefined;
    if (held) {
      steps.delete(step!);
      if (held.at === 'before') await held.action();
      else res = deferredResponse(res, held.action);
    }
    const failure = step ? failures.get(step) : undefined;
    if (failure === 'hang') return; // never answers; the client's timeout must end the wait
    if (typeof failure === 'number') {
      await readBody(req);
      return send(res, failure, { status: failure, message: `Injected failure of the ${step} step.` });
    }
    const lost = step ? lostAnswers.get(step) : undefined;
    if (lost !== undefined) {
      const real = res;
      res = mutedResponse(() => {
        for (const next of lost.thenFail) failures.set(next, 503);
        if (lost.status !== 'hang') send(real, lost.status, { status: lost.status, message: `Injected failure after the ${step} step.` });
      });
    }

    if (step === 'create') {
      await readBody(req);
      const id = nextId++;
      const bucket = randomUUID();
      const deposition: FakeDeposition = {
        id, bucket, files: new Map(), metadata: null, published: false, deleted: false, doi: null, editing: false, publishedMetadata: null,
        conceptRecid: nextId++, conceptDoi: null,
      };
      depositions.set(id, deposition);
      return send(res, 201, representation(deposition));
    }
    if (step === 'newversion' && (match = /^\/api\/deposit\/depositions\/(\d+)\/actions\/newversion$/.exec(path))) {
      await readBody(req);
      const source = depositions.get(Number(match[1]));
      if (!source || source.deleted) return send(res, 404, { status: 404, message: 'PID does not exist.' });
      if (!source.published) return send(res, 400, { status: 400, message: 'A new version can only be made of a published record.' });
      const open = [...depositions.values()].find((d) => d.conceptRecid === source.conceptRecid && !d.published && !d.deleted);
      if (open) return send(res, 400, { status: 400, message: 'Please delete or publish the open draft of this record first.' });
      const id = nextId++;
      const draft: FakeDeposition = {
        id, bucket: randomUUID(), metadata: source.metadata ? { ...source.metadata } : null, published: false, deleted: false, doi: null,
        editing: false, publishedMetadata: null,
        conceptRecid: source.conceptRecid, conceptDoi: source.conceptDoi,
        // Zenodo copies the previous version's files into the new draft, each with a new file id.
        files: new Map([...source.files].map(([name, f]) => [name, { ...f, id: randomUUID() }])),
      };
      depositions.set(id, draft);
      return send(res, 201, { ...representation(source), links: { ...representation(source).links, latest_draft: `${origin}/api/deposit/depositions/${id}` } });
    }
    if (step === 'delete-file' && (match = /^\/api\/deposit\/depositions\/(\d+)\/files\/([^/]+)$/.exec(path))) {
      await readBody(req);
      const deposition = depositions.get(Number(match[1]));
      if (!deposition || deposition.deleted) return send(res, 404, { status: 404, message: 'PID does not exist.' });
      if (deposition.published) return send(res, 400, { status: 400, message: 'The files of a published record cannot change.' });
      const fileId = decodeURIComponent(match[2]!);
      const entry = [...deposition.files].find(([, f]) => f.id === fileId);
      if (!entry) return send(res, 404, { status: 404, message: 'File does not exist.' });
      deposition.files.delete(entry[0]);
      return send(res, 204);
    }
    if (method === 'PUT' && (match = /^\/api\/files\/([^/]+)\/(.+)$/.exec(path))) {
      const deposition = [...depositions.values()].find((d) => d.bucket === match![1]);
      const body = await readBody(req);
      if (!deposition || deposition.deleted) return send(res, 404, { status: 404, message: 'Bucket does not exist.' });
      if (deposition.published) return send(res, 403, { status: 403, message: 'The bucket of a published record is locked.' });
      const name = decodeURIComponent(match[2]!);
      const md5 = createHash('md5').update(body).digest('hex');
      deposition.files.set(name, { size: body.length, md5, id: randomUUID(), body });
      return send(res, 201, { key: name, size: body.length, checksum: `md5:${md5}` });
    }
    if (method === 'POST' && (match = /^\/api\/deposit\/depositions\/(\d+)\/files$/.exec(path))) {
      const deposition = depositions.get(Number(match[1]));
      const body = await readBody(req);
      if (!deposition || deposition.deleted) return send(res, 404, { status: 404, message: 'Deposition not found.' });
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      const file = form.get('file');
      const name = String(form.get('name') ?? '');
      if (!(file instanceof Blob) || !name) return send(res, 400, { status: 400, message: 'Missing file or name.' });
      const bytes = Buffer.from(await file.arrayBuffer());
      const md5 = createHash('md5').update(bytes).digest('hex');
      deposition.files.set(name, { size: bytes.length, md5, id: randomUUID(), body: bytes });
      return send(res, 201, { id: randomUUID(), filename: name, filesize: bytes.length, checksum: md5 });
    }
    if ((match = /^\/api\/deposit\/depositions\/(\d+)\/actions\/(edit|discard)$/.exec(path)) && method === 'POST') {
      const deposition = depositions.get(Number(match[1]));
      await readBody(req);
      if (!deposition || deposition.deleted) return send(res, 404, { status: 404, message: 'PID does not exist.' });
      if (match[2] === 'edit') {
        if (!deposition.published) return send(res, 400, { status: 400, message: 'Only a published deposition can be edited.' });
        if (!deposition.editing) {
          deposition.editing = true;
          deposition.publishedMetadata = structuredClone(deposition.metadata);
        }
        return send(res, 201, representation(deposition));
      }
      if (!deposition.editing) return send(res, 400, { status: 400, message: 'The deposition has no open edit to discard.' });
      deposition.metadata = deposition.publishedMetadata;
      deposition.publishedMetadata = null;
      deposition.editing = false;
      return send(res, 201, representation(deposition));
    }
    if ((match = /^\/api\/deposit\/depositions\/(\d+)(\/actions\/publish)?$/.exec(path))) {
      const deposition = depositions.get(Number(match[1]));
      const raw = await readBody(req);
      if (!deposition || deposition.deleted) return send(res, 404, { status: 404, message: 'PID does not exist.' });
      if (method === 'GET' && !match[2]) return send(res, 200, representation(deposition));
      if (method === 'DELETE' && !match[2]) {
        if (deposition.published) return send(res, 403, { status: 403, message: 'You do not have permission to delete a published deposition.' });
        deposition.deleted = true;
        return send(res, 204);
      }
      if (method === 'PUT' && !match[2]) {
        if (deposition.published && !deposition.editing) {
          return send(res, 400, { status: 400, message: 'A published deposition must be opened for edit first (actions/edit).' });
        }
        let body: any;
        try { body = JSON.parse(raw.toString('utf8')); } catch { return send(res, 400, { status: 400, message: 'Could not parse JSON.' }); }
        const m = body?.metadata;
        const errors: { field: string; messages: string[] }[] = [];
        if (!m?.title) errors.push({ field: 'metadata.title', messages: ['Missing data for required field.'] });
        if (!['dataset', 'publication'].includes(m?.upload_type)) errors.push({ field: 'metadata.upload_type', messages: ['Invalid upload type.'] });
        if (m?.upload_type === 'publication' && !m?.publication_type) errors.push({ field: 'metadata.publication_type', messages: ['Missing publication type.'] });
        if (!m?.description) errors.push({ field: 'metadata.description', messages: ['Missing data for required field.'] });
        // Like Zenodo's licence vocabulary: lower-case SPDX identifiers.
        if (m?.license !== undefined && (typeof m.license !== 'string' || !/^[a-z0-9][a-z0-9.+-]*$/.test(m.license))) {
          errors.push({ field: 'metadata.license', messages: ['Invalid license.'] });
        }
        if (!Array.isArray(m?.creators) || m.creators.length === 0 || m.creators.some((c: any) => !c?.name)) {
          errors.push({ field: 'metadata.creators', messages: ['At least one creator with a name is required.'] });
        }
        if (errors.length > 0) return send(res, 400, { status: 400, message: 'Validation error.', errors });
        deposition.metadata = m;
        return send(res, 200, representation(deposition));
      }
      if (method === 'POST' && match[2]) {
        if (!deposition.metadata) return send(res, 400, { status: 400, message: 'Validation error: metadata missing.' });
        if (deposition.files.size === 0) return send(res, 400, { status: 400, message: 'Minimum one file must be provided.' });
        if (deposition.published && !deposition.editing) return send(res, 400, { status: 400, message: 'The deposition is already published.' });
        // Publishing an edit keeps the DOI.
        deposition.editing = false;
        deposition.publishedMetadata = null;
        deposition.published = true;
        deposition.doi = `10.5072/zenodo.${deposition.id}`;
        const concept = `10.5072/zenodo.${deposition.conceptRecid}`;
        for (const d of depositions.values()) if (d.conceptRecid === deposition.conceptRecid) d.conceptDoi = concept;
        return send(res, 202, representation(deposition));
      }
    }
    await readBody(req);
    send(res, 404, { status: 404, message: 'The requested URL was not found on the server.' });
  }

  function answerRecord(res: ServerResponse, id: number, key: string | undefined): void {
    const record = records.get(id);
    const file = key === undefined ? undefined : record?.files.find((f) => f.key === key);
    if (!record || (key !== undefined && !file)) return send(res, 404, { status: 404, message: 'PID does not exist.' });
    if (file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.body.length });
      res.end(file.body);
      return;
    }
    send(res, 200, {
      id, doi: record.doi, links: { self_html: `${origin}/records/${id}` },
      files: record.files.map((f) => ({
        key: f.key, size: f.body.length, checksum: `md5:${createHash('md5').update(f.body).digest('hex')}`,
        links: { self: `${origin}/api/records/${id}/files/${encodeURIComponent(f.key)}`, content: `${origin}/api/records/${id}/files/${encodeURIComponent(f.key)}/content` },
      })),
    });
  }

  function representation(d: FakeDeposition) {
    const links: Record<string, string> = {
      self: `${origin}/api/deposit/depositions/${d.id}`,
      publish: `${origin}/api/deposit/depositions/${d.id}/actions/publish`,
      files: `${origin}/api/deposit/depositions/${d.id}/files`,
    };
    if (bucketLinks) links.bucket = `${origin}/api/files/${d.bucket}`;
    return {
      id: d.id,
      links,
      state: d.editing ? 'inprogress' : d.published ? 'done' : 'unsubmitted',
      submitted: d.published,
      ...(d.doi ? { doi: d.doi, doi_url: `https://doi.org/${d.doi}`, record_id: d.id } : {}),
      conceptrecid: String(d.conceptRecid),
      ...(d.conceptDoi ? { conceptdoi: d.conceptDoi } : {}),
      files: [...d.files].map(([name, f]) => ({ id: f.id, filename: name, filesize: f.size, checksum: f.md5 })),
      metadata: { ...(d.metadata ?? {}), ...(d.doi ? { doi: d.doi } : {}), prereserve_doi: { doi: `10.5072/zenodo.${d.id}`, recid: d.id } },
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api`,
    token,
    depositions,
    requests,
    failOn: (step, status) => { failures.set(step, status); },
    loseAnswer: (step, status, thenFail = []) => { lostAnswers.set(step, { status, thenFail }); },
    stepAt: (step, action, at = 'before') => { steps.set(step, { action, at }); },
    withoutBucket: (value) => { bucketLinks = !value; },
    addRecord(files) {
      const id = nextId++;
      const doi = `10.5281/zenodo.${id}`;
      records.set(id, { doi, files: files.map((f) => ({ key: f.key, body: Buffer.from(f.body) })) });
      return { id, doi, page: `${origin}/records/${id}` };
    },
    reset() {
      failures.clear();
      lostAnswers.clear();
      steps.clear();
      requests.length = 0;
      bucketLinks = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A hub that deposits to its own fake Zenodo: both started before the suite's tests and closed
 * after them. Read `server` and `zenodo` inside the tests (they exist once the suite started).
 */
export function useHubWithFakeZenodo(options: TestServerOptions = {}): { readonly server: TestServer; readonly zenodo: FakeZenodo } {
  let server: TestServer | undefined;
  let zenodo: FakeZenodo | undefined;
  before(async () => {
    zenodo = await startFakeZenodo();
    server = await startTestServer({ ...options, env: { ...options.env, ZENODO_API_URL: zenodo.url, ZENODO_ACCESS_TOKEN: zenodo.token } });
  });
  after(async () => {
    await server?.close();
    await zenodo?.close();
  });
  return { get server() { return server!; }, get zenodo() { return zenodo!; } };
}
