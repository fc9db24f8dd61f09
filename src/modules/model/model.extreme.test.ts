// Extreme shapes through the whole hub (extensions section 10, "Limits said at the door"): a root
// with 150 000 children and chains as deep as the parser allows are staged, uploaded and shown on
// every page and export; a chain of 20 000 features (UVL or FeatureIDE) is refused at staging
// with one clear error; a model over MAX_FEATURES is refused at staging and nothing is kept.
// No answer may be a 500: no walk recurses on depth and no array is spread into a call.
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { preparedPage } from './model.test-support.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { uploadDataset } from '../../../test/support/uploads.ts';
import { storedEntries } from '../../../test/support/stored.ts';
import { MAX_DEPTH } from '../../../packages/uvl/src/index.ts';
import type { TestClient } from '../../../test/support/client.ts';
import { MAX_SHOWN_CHILDREN } from './diagram.layout.ts';
import { bearer, createToken } from '../../../test/support/api.ts';

/** Stages a file as the upload page does (dataset's own test helper is not for other modules). */
function stage(client: TestClient, name: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return client.post('/dataset/file/upload', { body: form });
}

const WIDE = 150_000;
const DEEP = 20_000;
/** A deeper UVL text is too long to write: its indentation alone grows with the square of the depth. */
const DEEP_UVL = 2_000;

function wideText(n: number): string {
  const lines = ['features', '    Root', '        optional'];
  for (let i = 0; i < n; i++) lines.push(`            F${i}`);
  return `${lines.join('\n')}\n`;
}

/** A chain indented by tabs (its text grows with the square of the depth: 2 000 levels are 4 MB). */
function chainText(n: number): string {
  const lines = ['features'];
  for (let i = 0; i < n; i++) {
    lines.push(`${'\t'.repeat(1 + 2 * i)}F${i}`);
    if (i < n - 1) lines.push(`${'\t'.repeat(2 + 2 * i)}optional`);
  }
  return `${lines.join('\n')}\n`;
}

function chainFeatureIde(n: number): string {
  return `<?xml version="1.0"?>\n<featureModel><struct>${Array.from({ length: n - 1 }, (_, i) => `<and name="F${i}">`).join('')}`
    + `<feature name="F${n - 1}"/>${'</and>'.repeat(n - 1)}</struct></featureModel>\n`;
}

describe('extreme models through the hub (150 000 children, deep chains, MAX_FEATURES)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true, env: { ANALYSIS_WORKERS: '0', MAX_FEATURES: '160000', LOG_LEVEL: 'error' } });
  });
  after(async () => server?.close());

  async function everyPageAnswers(fileId: number, names: { root: string; last: string }) {
    const { client } = await newUser(server, 'Reader');
    const paths = [
      `/model/${fileId}/`, `/model/${fileId}/diagram.svg`, `/model/${fileId}/diagram.svg?depth=1000`,
      `/model/${fileId}/diagram.svg?open=${names.root}`, `/model/${fileId}/diagram.svg?root=${names.last}`,
      `/model/${fileId}/features.json?q=${names.last}`, `/model/${fileId}/lines?from=1&to=2000`,
      `/configurator/${fileId}/tree.json`,
      ...['glencoe', 'splot', 'cnf', 'featureide'].flatMap((f) => [`/modeltool/to_${f}/${fileId}`, `/modeltool/download/${f}/${fileId}`]),
      `/modeltool/check_uvl/${fileId}`, `/modeltool/valid/${fileId}`,
    ];
    const times: string[] = [];
    for (const path of paths) {
      const started = performance.now();
      const res = await client.get(path);
      times.push(`${path.replace(/^\/(\w+)\/(\w+\/)?\d+/, '$1/$2…')} ${Math.round(performance.now() - started)} ms`);
      assert.ok(res.status === 200 || res.status === 202, `${path}: ${res.status} ${res.text.slice(0, 300)}`);
    }
    console.log(`# ${names.last}: ${times.join(', ')}`);
    const found = await client.get(`/model/${fileId}/features.json?q=${names.last}`);
    assert.equal(found.json.features[0].name, names.last);
  }

  it(`stages, uploads and shows a root with ${WIDE} children on every page and export`, async () => {
    const { client } = await newUser(server);
    const staged = await stage(client, 'wide.uvl', wideText(WIDE));
    assert.equal(staged.status, 200, staged.text.slice(0, 300));
    assert.equal(staged.json.valid, true);
    const upload = await uploadDataset(client, 'Wide', [['wide.uvl', wideText(WIDE)]]);
    const file = await server.hub.db.selectFrom('file').select('id').where('name', 'like', 'wide%').orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.ok(upload.dataset_id > 0);
    await everyPageAnswers(file.id, { root: 'Root', last: `F${WIDE - 1}` });

    // Drawn with the first MAX_SHOWN_CHILDREN children and the count of the rest (it was 47 MB of SVG).
    const svg = await client.get(`/model/${file.id}/diagram.svg`);
    assert.equal([...svg.text.matchAll(/data-feature="/g)].length, MAX_SHOWN_CHILDREN + 1);
    // The rest is a "+n more" box now (issue 37, item 4; it was "Root ▸ n" in the root's label).
    assert.match(svg.text, new RegExp(`data-more-of="Root">.*>\\+${WIDE - MAX_SHOWN_CHILDREN} more</text>`));
    const page = await preparedPage(client, `/model/${file.id}/`);
    assert.ok(page.text.length < 1024 * 1024, `${page.text.length} bytes of page`);
    const last = await client.get(`/model/${file.id}/diagram.svg?root=F${WIDE - 1}`);
    assert.match(last.text, new RegExp(`data-feature="F${WIDE - 1}"`));

    // The fact label at its worst: a finished analysis with every feature core and every one an atomic set.
    const names = ['Root', ...Array.from({ length: WIDE }, (_, i) => `F${i}`)];
    const result = {
      valid: true, boolean_only: true, ignored_constraints: 0, satisfiable: true, configurations: `2^${WIDE}`, configurations_status: 'exact',
      core: names, dead: [], false_optional: [], variant: [], atomic_sets: names.map((n) => [n]), explanations: { void: [], dead: {}, false_optional: {} },
      metrics: { features: names.length, leaf_features: WIDE, abstract_features: 0, compound_features: 1, depth: 1, groups: { or: 0, alternative: 0, cardinality: 0 }, constraints: 0, simple_constraints: 0, complex_constraints: 0, features_in_constraints: 0, attributes: 0, typed_features: 0, language_level: 'boolean' },
      timings_ms: {},
    };
    const updated = await server.hub.db.updateTable('model_analysis').set({ status: 'done', result: JSON.stringify(result) }).where('sha256', '=', createHash('sha256').update(wideText(WIDE), 'utf8').digest('hex')).executeTakeFirst();
    assert.equal(Number(updated.numUpdatedRows), 1);
    const labelled = await preparedPage(client, `/model/${file.id}/`);
    assert.equal(labelled.status, 200);
    assert.match(labelled.text, /data-analysis-state="finished"/);
    assert.equal((await client.get(`/model/${file.id}/analysis.json`)).status, 200);
    assert.equal((await client.get(`/model/${file.id}/diagram.svg`)).status, 200);
  });

  it('shows a model whose one constraint is a line of 1 MB as a light page: the line in plain text, not 400 000 highlighted spans', async () => {
    const terms = Array.from({ length: 200_000 }, (_, i) => `F${i % 3}`).join(' | ');
    const text = `features\n    Root\n        optional\n            F0\n            F1\n            F2\nconstraints\n    ${terms}\n`;
    const { client } = await newUser(server);
    await uploadDataset(client, 'One long line', [['longline.uvl', text]]);
    const file = await server.hub.db.selectFrom('file').select('id').where('name', 'like', 'longline%').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const page = await preparedPage(client, `/model/${file.id}/`);
    assert.equal(page.status, 200);
    // It was 14 MB (a span per token), half a minute before the browser showed it.
    assert.ok(page.text.length < 1.5 * 1024 * 1024, `${page.text.length} bytes of page`);
    const line8 = /<div class="uvl-line" id="L8">[\s\S]*?<\/div>/.exec(page.text)![0];
    assert.ok(!line8.includes('<span'), 'the long line is plain text');
    assert.ok(line8.includes('F0 | F1 | F2'), 'and whole');
    assert.match(page.text, /id="L3">.*<span class="uvl-keyword">optional<\/span>/, 'the other lines keep their highlighting');
    const lines = await client.get(`/model/${file.id}/lines?from=8&to=8`);
    assert.equal(lines.status, 200);
    assert.ok(!lines.json.lines[0].includes('<span'));
  });

  it(`stages, uploads and shows a chain ${MAX_DEPTH} deep (the parser's limit) on every page and export`, async () => {
    const { client } = await newUser(server);
    await uploadDataset(client, 'Chain', [['chain.uvl', chainText(MAX_DEPTH)]]);
    const file = await server.hub.db.selectFrom('file').select('id').where('name', 'like', 'chain%').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await everyPageAnswers(file.id, { root: 'F0', last: `F${MAX_DEPTH - 1}` });
  });

  it(`answers a chain too deep at staging with one clear error: UVL (${DEEP_UVL}) is staged invalid, FeatureIDE (${DEEP}) refused`, async () => {
    const { client, userId } = await newUser(server);
    const uvl = await stage(client, 'deep.uvl', chainText(DEEP_UVL));
    assert.equal(uvl.status, 200);
    assert.equal(uvl.json.valid, false);
    assert.equal(uvl.json.errors.length, 1);
    assert.match(uvl.json.errors[0], new RegExp(`nested more than ${MAX_DEPTH} levels deep`));
    assert.equal((await client.get('/dataset/upload')).status, 200, 'the upload page lists it');

    const xml = await stage(client, 'deep.xml', chainFeatureIde(DEEP));
    assert.equal(xml.status, 400);
    assert.match(xml.json.message, /^deep\.xml is not a valid FeatureIDE model: /);
    assert.deepEqual(await storedEntries(server, `temp/${userId}/`), ['deep.uvl']);
  });

  it('refuses a model over MAX_FEATURES at staging with one clear error, keeping nothing (UVL and converted)', async () => {
    const { client, userId } = await newUser(server);
    const over = await stage(client, 'huge.uvl', wideText(160_000));
    assert.equal(over.status, 400, over.text.slice(0, 300));
    assert.equal(over.json.message, 'huge.uvl has 160001 features, more than the 160000 this hub accepts (MAX_FEATURES).');
    const xml = `<?xml version="1.0"?>\n<featureModel><struct><and name="Root">${Array.from({ length: 160_000 }, (_, i) => `<feature name="F${i}"/>`).join('')}</and></struct></featureModel>\n`;
    const converted = await stage(client, 'huge.xml', xml);
    assert.equal(converted.status, 400, converted.text.slice(0, 300));
    assert.equal(converted.json.message, 'huge.xml has 160001 features, more than the 160000 this hub accepts (MAX_FEATURES).');
    assert.deepEqual(await storedEntries(server, `temp/${userId}/`), []);
    const atLimit = await stage(client, 'edge.uvl', wideText(159_999));
    assert.equal(atLimit.status, 200);
    assert.equal(atLimit.json.valid, true);
  });

  it('refuses a model over MAX_FEATURES added through the API with the same 400, the dataset unchanged', async () => {
    const { client } = await newUser(server, 'Api');
    const token = await createToken(client, ['write']);
    const api = (method: string, path: string, body?: unknown) => bearer(server.baseUrl, token, method, path, body);
    const created = await api('POST', '/api/v1/datasets/', { name: 'Too large', description: 'Over the limit' });
    assert.equal(created.status, 201);
    const form = new FormData();
    form.append('file', new Blob([wideText(160_000)]), 'huge.uvl');
    const added = await api('POST', `/api/v1/datasets/${created.json.id}/files`, form);
    assert.equal(added.status, 400);
    assert.deepEqual(added.json, { message: 'huge.uvl has 160001 features, more than the 160000 this hub accepts (MAX_FEATURES).' });
    assert.deepEqual((await api('GET', `/api/v1/datasets/${created.json.id}`)).json.files, []);
  });
});
