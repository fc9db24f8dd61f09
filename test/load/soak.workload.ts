// The soak's mixed workload (soak.ts): each kind of request as one operation against one of the
// hub instances, with what it confirmed recorded for the checks at the end (uploads and their
// files, views and downloads sent), and latency and errors by kind.
import { createHash } from 'node:crypto';
import { TestClient, type RequestOptions, type TestResponse } from '../support/client.ts';
import { bearer as apiRequest } from '../support/api.ts';

/** The instances run with production settings behind a TLS proxy (Secure cookies): the requests say so as the proxy does. */
export const VIA_PROXY = { 'x-forwarded-proto': 'https' };

export class ProxiedClient extends TestClient {
  override async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    return super.request(method, path, { ...options, headers: { ...VIA_PROXY, ...options.headers } });
  }
}

export interface Account {
  email: string;
  password: string;
  token?: string;
}

export interface ConfirmedUpload {
  datasetId: number;
  owner: Account;
  files: { name: string; sha256: string }[];
  via: 'page' | 'api';
}

/** What the workload sent and what the hub confirmed. */
export interface Ledger {
  accounts: Account[];
  uploads: ConfirmedUpload[];
  /** API uploads not yet published. */
  publishable: ConfirmedUpload[];
  /** DOI -> dataset id. */
  dois: Map<string, number>;
  /** Dataset ids and file ids that serve downloads. */
  datasetIds: number[];
  fileIds: number[];
  viewsSent: Map<number, number>;
  zipDownloadsSent: Map<number, number>;
  fileDownloadsSent: Map<number, number>;
}

export class Stats {
  private readonly latencies = new Map<string, number[]>();
  private readonly errors = new Map<string, number>();
  readonly samples: string[] = [];

  record(kind: string, ms: number, ok: boolean, detail?: string): void {
    if (!this.latencies.has(kind)) this.latencies.set(kind, []);
    this.latencies.get(kind)!.push(ms);
    if (!ok) {
      this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
      if (this.samples.length < 20) this.samples.push(`${kind}: ${detail}`);
    }
  }

  totalErrors(): number {
    return [...this.errors.values()].reduce((a, b) => a + b, 0);
  }

  rows(): string[][] {
    const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const all: number[] = [];
    const rows = [...this.latencies].sort((a, b) => a[0].localeCompare(b[0])).map(([kind, values]) => {
      all.push(...values);
      const sorted = [...values].sort((a, b) => a - b);
      return [kind, String(values.length), String(this.errors.get(kind) ?? 0), ...[0.5, 0.95, 0.99].map((q) => `${quantile(sorted, q).toFixed(0)} ms`)];
    });
    const sorted = all.sort((a, b) => a - b);
    rows.push(['all', String(all.length), String(this.totalErrors()), ...[0.5, 0.95, 0.99].map((q) => `${quantile(sorted, q).toFixed(0)} ms`)]);
    return rows;
  }
}

const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let serial = 0;
/** A small valid model whose content is new each time (so each upload is its own content). */
function freshModel(): { name: string; text: string } {
  serial += 1;
  const text = `namespace Soak${serial}\n\nfeatures\n    Soak${serial} {abstract}\n        mandatory\n            Base\n        optional\n            Extra${serial}\n            Other\n\nconstraints\n    Extra${serial} => Base\n`;
  return { name: `soak-${process.pid}-${serial}.uvl`, text };
}

/** Times one HTTP exchange and records it under its kind; answers the response or undefined on failure. */
async function timed<T extends { status: number }>(stats: Stats, kind: string, expected: number[], run: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const res = await run();
    const ok = expected.includes(res.status);
    stats.record(kind, performance.now() - started, ok, `status ${res.status}`);
    return ok ? res : undefined;
  } catch (error) {
    stats.record(kind, performance.now() - started, false, String((error as Error).cause ?? error));
    return undefined;
  }
}

/** An API request with a token, through the proxy like every request of the soak. */
function bearer(baseUrl: string, token: string, method: string, path: string, body?: unknown): ReturnType<typeof apiRequest> {
  return apiRequest(baseUrl, token, method, path, body, VIA_PROXY);
}

/** Signs up a new account through the form and makes it a write token (for API uploads). */
export async function signUp(baseUrl: string, stats: Stats, ledger: Ledger): Promise<ProxiedClient | undefined> {
  const client = new ProxiedClient(baseUrl);
  const account: Account = { email: `soak-${process.pid}-${++serial}@example.com`, password: 'soak-password-1' };
  if (!(await timed(stats, 'signup form', [200], () => client.get('/signup/')))) return undefined;
  const made = await timed(stats, 'signup', [302], () => client.post('/signup/', { form: { email: account.email, password: account.password, name: 'Soak', surname: 'Runner' } }));
  if (!made) return undefined;
  ledger.accounts.push(account);
  return client;
}

export async function createToken(client: ProxiedClient, stats: Stats, account: Account): Promise<void> {
  await timed(stats, 'token page', [200], () => client.get('/profile/tokens'));
  const body = new URLSearchParams({ name: 'soak', expires_in_days: '30', csrf_token: client.csrfToken ?? '' });
  body.append('scopes', 'write');
  const res = await timed(stats, 'token create', [200], () => client.post('/profile/tokens', { body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  const token = res && /id="new-token"[^>]*value="([^"]+)"/.exec(res.text)?.[1];
  if (token) account.token = token;
}

export async function login(baseUrl: string, stats: Stats, ledger: Ledger, n: number): Promise<void> {
  const account = pick(ledger.accounts, n);
  const client = new ProxiedClient(baseUrl);
  if (!(await timed(stats, 'login form', [200], () => client.get('/login')))) return;
  await timed(stats, 'login', [302], () => client.post('/login', { form: { email: account.email, password: account.password } }));
}

/** Stages a model and uploads a dataset with it through the pages, as the upload page's script does. */
export async function uploadThroughPage(client: ProxiedClient, stats: Stats, ledger: Ledger, owner: Account): Promise<void> {
  const model = freshModel();
  const form = new FormData();
  form.append('file', new Blob([model.text], { type: 'text/plain' }), model.name);
  const staged = await timed(stats, 'upload page: stage', [200], () => client.post('/dataset/file/upload', { body: form }));
  if (!staged) return;
  const fields: Record<string, string> = {
    title: `Soak page upload ${serial}`, desc: 'Uploaded by the soak run', publication_type: 'none', publication_doi: '', tags: 'soak',
    'authors-0-name': 'Soak, Runner', 'authors-0-affiliation': '', 'authors-0-orcid': '',
    'feature_models-0-uvl_filename': staged.json.filename, 'feature_models-0-title': model.name, 'feature_models-0-desc': '',
    'feature_models-0-publication_type': 'none', 'feature_models-0-publication_doi': '', 'feature_models-0-tags': '', 'feature_models-0-version': '2.0',
  };
  const done = await timed(stats, 'upload page: submit', [200], () => client.post('/dataset/upload', { form: fields }));
  if (done?.json?.dataset_id) ledger.uploads.push({ datasetId: done.json.dataset_id, owner, files: [{ name: model.name, sha256: sha256(model.text) }], via: 'page' });
}

/** Creates a dataset and adds a model through the API with a write token. */
export async function uploadThroughApi(baseUrl: string, stats: Stats, ledger: Ledger, n: number): Promise<void> {
  const owners = ledger.accounts.filter((a) => a.token);
  if (owners.length === 0) return;
  const owner = pick(owners, n);
  const created = await timed(stats, 'upload API: create', [201], () => bearer(baseUrl, owner.token!, 'POST', '/api/v1/datasets/', {
    name: `Soak API upload ${n}`, description: 'Created by the soak run through the API', tags: 'soak, api', authors: [{ name: 'Soak, Runner' }],
  }));
  if (!created) return;
  const model = freshModel();
  const form = new FormData();
  form.append('file', new Blob([model.text]), model.name);
  const added = await timed(stats, 'upload API: add file', [201], () => bearer(baseUrl, owner.token!, 'POST', `/api/v1/datasets/${created.json.id}/files`, form));
  if (!added) return;
  const upload: ConfirmedUpload = { datasetId: created.json.id, owner, files: [{ name: model.name, sha256: sha256(model.text) }], via: 'api' };
  ledger.uploads.push(upload);
  ledger.publishable.push(upload);
}

export async function publish(baseUrl: string, stats: Stats, ledger: Ledger): Promise<void> {
  const upload = ledger.publishable.shift();
  if (!upload) return;
  const res = await timed(stats, 'publish (API)', [200], () => bearer(baseUrl, upload.owner.token!, 'POST', `/api/v1/datasets/${upload.datasetId}/publish`));
  if (res?.json?.doi) {
    ledger.dois.set(res.json.doi, upload.datasetId);
    ledger.datasetIds.push(upload.datasetId);
  }
}

const add = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);

/** A new visitor (no cookie) opens a DOI page: one view each. */
export async function viewDoi(baseUrl: string, stats: Stats, ledger: Ledger, n: number): Promise<void> {
  const dois = [...ledger.dois];
  const [doi, datasetId] = pick(dois, n);
  const res = await timed(stats, 'DOI page', [200], async () => {
    const r = await fetch(`${baseUrl}/doi/${doi}/`, { headers: VIA_PROXY });
    await r.arrayBuffer();
    return r;
  });
  if (res) add(ledger.viewsSent, datasetId);
}

/** A new visitor downloads a dataset's zip or one file: one download each. */
export async function download(baseUrl: string, stats: Stats, ledger: Ledger, n: number): Promise<void> {
  const zip = n % 2 === 0;
  const id = zip ? pick(ledger.datasetIds, n >> 1) : pick(ledger.fileIds, n >> 1);
  const res = await timed(stats, zip ? 'dataset zip download' : 'file download', [200], async () => {
    const r = await fetch(`${baseUrl}/${zip ? 'dataset' : 'file'}/download/${id}`, { headers: VIA_PROXY });
    await r.arrayBuffer();
    return r;
  });
  if (res) add(zip ? ledger.zipDownloadsSent : ledger.fileDownloadsSent, id);
}

const SEARCHES = [
  { query: 'sample', models: { features: { min: 2 } } },
  { query: '', models: { satisfiable: true, features: { min: 3, max: 500 } } },
  { query: 'soak', models: { has_dead: false } },
  { query: 'model', models: { feature: 'base' } },
  { query: 'soak api', sorting: 'oldest' },
];

export async function explore(baseUrl: string, stats: Stats, n: number): Promise<void> {
  await timed(stats, 'explore search (model filters)', [200], async () => {
    const r = await fetch(`${baseUrl}/explore`, {
      method: 'POST', headers: { ...VIA_PROXY, 'content-type': 'application/json' }, body: JSON.stringify({ limit: 20, ...pick(SEARCHES, n) }),
    });
    await r.arrayBuffer();
    return r;
  });
}

export async function analysis(baseUrl: string, stats: Stats, ledger: Ledger, n: number): Promise<void> {
  const id = pick(ledger.fileIds, n);
  await timed(stats, 'analysis (API)', [200], async () => {
    const r = await fetch(`${baseUrl}/api/v1/files/${id}/analysis`, { headers: VIA_PROXY });
    await r.arrayBuffer();
    return r;
  });
}

export { bearer };
