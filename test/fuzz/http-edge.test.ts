// Bad input at the HTTP edge (issue 26, item 5): every route that accepts a body, taken from
// Fastify's own route table, gets broken multipart bodies, broken encodings, huge headers and
// fields, invalid JSON and wrong content types (http-edge.cases.ts), as an anonymous visitor, a
// logged-in one with and without the CSRF token, and a bearer token; 5 000 requests drawn from a
// fixed seed. Checked: no 5xx, no stack trace or internal path in any body, and a refused request
// (4xx) leaves the rows of the main tables and the objects of the store as they were.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { prng } from '../../packages/uvl/src/corpus.support.ts';
import { useHubWithFakeZenodo } from '../support/fake-zenodo.ts';
import { testDialects } from '../support/databases.ts';
import { newUser } from '../support/accounts.ts';
import { PHONE_UVL, createToken } from '../support/api.ts';
import type { TestServer } from '../support/server.ts';
import { uploadDataset } from '../../src/modules/analysis/analysis.test-support.ts';
import { badBody, pick, type BadBody } from './http-edge.cases.ts';

const SEED = 26;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5000);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Tables whose rows a refused request must not change: every table a body-taking route writes
 * (datasets and their file names, accounts and tokens, carts, review links, collections, ORCID links and claims, the
 * configurator's samples) and the visit records, which no body-taking route may write. Sessions,
 * login attempts and the API's rate counters are written by refusals on purpose; analyses are
 * written in the background after an upload.
 */
const MAIN_TABLES = [
  'user', 'user_profile', 'data_set', 'ds_meta_data', 'ds_metrics', 'feature_model', 'fm_meta_data', 'author', 'file',
  'dataset_file_name', 'api_token', 'account_token', 'dataset_edit', 'staged_claim', 'doi_mapping', 'explore_search',
  'cart_item', 'review_link', 'orcid_account', 'orcid_claim', 'model_sample', 'collection', 'collection_member', 'import_source',
  'ds_view_record', 'ds_download_record', 'file_view_record', 'file_download_record',
];

/** Method and URL of every route with a body-taking method, from the tree printRoutes draws. */
function bodyRoutes(tree: string): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const path: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    path.length = depth;
    path.push(match[2]!);
    for (const method of (match[3] ?? '').split(', ')) if (BODY_METHODS.has(method)) routes.push({ method, url: path.join('') });
  }
  return routes;
}

interface Identity {
  name: string;
  headers: Record<string, string>;
}

async function snapshot(server: TestServer): Promise<string> {
  // One statement for every count: this runs twice per request.
  const counts = sql.join(MAIN_TABLES.map((table) => sql`(SELECT COUNT(*) FROM ${sql.id(table)}) AS ${sql.id(table)}`));
  const row = (await sql<Record<string, number | string>>`SELECT ${counts}`.execute(server.hub.db)).rows[0]!;
  const keys = (await server.hub.ctx.store.list('')).map((o) => o.key);
  return `${MAIN_TABLES.map((t) => `${t}=${Number(row[t])}`).join(' ')} | ${keys.join(' ')}`;
}

/** A stack frame, an internal path or a raw JavaScript error message: what no answer may show. */
const LEAK = /\n\s*at \S.*:\d+:\d+|node_modules\/|\/src\/(core|modules)\/|\.ts:\d+:\d+|(Type|Reference|Syntax|Range)Error: |Cannot read propert/;

async function send(baseUrl: string, route: { method: string; url: string }, identity: Identity, bad: BadBody): Promise<{ status: number; text: string }> {
  const headers = { ...bad.headers, ...identity.headers };
  if (bad.headers.cookie && identity.headers.cookie) headers.cookie = `${identity.headers.cookie}; ${bad.headers.cookie}`;
  try {
    const res = await fetch(baseUrl + route.url, { method: route.method, headers, body: bad.body as Uint8Array<ArrayBuffer> | undefined, redirect: 'manual' });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    // The server may close the connection on a request past its limits (431, 413) before reading it all.
    return { status: 0, text: String((error as Error).cause ?? error) };
  }
}

for (const dialect of testDialects()) describe(`HTTP edge fuzz [${dialect.name}]`, () => {
  const hubs = useHubWithFakeZenodo({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { API_RATE_LIMIT: '0' } });

  it(`${REQUESTS} malformed requests to every body-taking route: no 5xx, no stack trace, nothing half-written`, async () => {
    const { server } = hubs;
    const routes = bodyRoutes(server.hub.app.printRoutes({ commonPrefix: false }));
    for (const expected of ['POST /dataset/file/upload', 'POST /dataset/upload', 'POST /api/v1/datasets/:id(^\\d+$)/files', 'POST /login', 'POST /explore']) {
      assert.ok(routes.some((r) => `${r.method} ${r.url}` === expected), `${expected} is in the route table`);
    }
    const { client } = await newUser(server, 'Fuzzer');
    const token = await createToken(client, ['read', 'write']);
    const { dataset_id: datasetId } = await uploadDataset(client, 'Fuzz target', [['fuzz.uvl', PHONE_UVL]]);
    await client.get('/dataset/upload');
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const identities: Identity[] = [
      { name: 'anonymous', headers: {} },
      { name: 'session with CSRF', headers: { cookie, 'x-csrftoken': client.csrfToken! } },
      { name: 'session without CSRF', headers: { cookie } },
      { name: 'bearer token', headers: { authorization: `Bearer ${token}` } },
    ];
    const concrete = routes.map((r) => ({ ...r, url: r.url.replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => (name === 'token' ? 'not-a-token' : String(datasetId))) }));

    const random = prng(SEED);
    const failures: string[] = [];
    const byStatus = new Map<number, number>();
    let before = await snapshot(server);
    for (let i = 0; i < REQUESTS; i++) {
      const route = pick(random, concrete);
      const identity = pick(random, identities);
      const bad = badBody(random);
      const { status, text } = await send(server.baseUrl, route, identity, bad);
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      const after = await snapshot(server);
      const where = `#${i} ${route.method} ${route.url} as ${identity.name}, ${bad.kind} (${bad.body?.length ?? 0} bytes)`;
      if (status >= 500) failures.push(`${where}: ${status} ${text.slice(0, 300)}`);
      if (LEAK.test(text)) failures.push(`${where}: ${status} shows internals: ${LEAK.exec(text)![0]}`);
      if (status >= 400 && after !== before) failures.push(`${where}: refused with ${status} but changed ${before} -> ${after}`);
      before = after;
    }
    console.log(`fuzz: ${REQUESTS} requests over ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0])))}`);
    assert.deepEqual(failures.slice(0, 40), []);
    const alive = await fetch(`${server.baseUrl}/`);
    assert.equal(alive.status, 200, 'the server still answers');
  });
});
