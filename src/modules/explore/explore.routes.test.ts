// GET and POST /explore at HTTP level, on every dialect (specification, explore; decisions
// sections 4 and 7; issue 5). Datasets are made the way users make them: staged and
// uploaded through the dataset module's HTTP endpoints, published by the fake deposit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { TestClient } from '../../../test/support/client.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';
import { readModuleSelection } from '../../core/modules.ts';
import { loadConfig, projectPath } from '../../core/config.ts';
import { seedSynthetic } from './explore.synthetic.ts';

const MODEL = 'features\n    Root\n        optional\n            Alpha\n            Beta\n';

interface UploadSpec {
  title?: string;
  desc?: string;
  publication_type?: string;
  tags?: string;
  author?: { name: string; affiliation?: string; orcid?: string };
  file?: string;
  fm?: { title?: string; desc?: string; publication_doi?: string; tags?: string };
}

/** Stages one UVL file and uploads a dataset around it, as the upload page does. */
async function upload(client: TestClient, spec: UploadSpec): Promise<{ status: string; dataset_id: number; doi?: string }> {
  const form = new FormData();
  form.append('file', new Blob([MODEL], { type: 'text/plain' }), spec.file ?? 'model.uvl');
  const staged = await client.post('/dataset/file/upload', { body: form });
  assert.equal(staged.status, 200, staged.text);
  const fields: Record<string, string> = {
    title: spec.title ?? 'Plain dataset',
    desc: spec.desc ?? 'Plain description',
    publication_type: spec.publication_type ?? 'none',
    publication_doi: '',
    tags: spec.tags ?? '',
    'authors-0-name': spec.author?.name ?? 'Plain Author',
    'authors-0-affiliation': spec.author?.affiliation ?? '',
    'authors-0-orcid': spec.author?.orcid ?? '',
    'feature_models-0-uvl_filename': staged.json.filename,
    'feature_models-0-title': spec.fm?.title ?? 'Plain model',
    'feature_models-0-desc': spec.fm?.desc ?? 'Plain model description',
    'feature_models-0-publication_type': 'none',
    'feature_models-0-publication_doi': spec.fm?.publication_doi ?? '',
    'feature_models-0-tags': spec.fm?.tags ?? '',
    'feature_models-0-version': '2.0',
  };
  const res = await client.post('/dataset/upload', { form: fields });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

async function explore(server: TestServer, body?: unknown, init: RequestInit = {}) {
  const res = await fetch(`${server.baseUrl}/explore`, {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    ...init,
  });
  const text = await res.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, json, text, headers: res.headers };
}

const idsOf = (results: { id: number }[]) => results.map((r) => r.id);

for (const dialect of testDialects()) {
  describe(`explore [${dialect.name}]`, () => {
    let server: TestServer;
    const client = () => new TestClient(server.baseUrl);
    /** Dataset ids by the column that holds their unique word. */
    const byColumn = new Map<string, number>();
    let seeded: number[] = [];

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true });
      const user = client();
      await user.login('user1@example.com', '1234');
      await user.get('/dataset/upload');
      // One dataset per searchable column (explore rule 2), each with a word found nowhere else.
      const specs: [string, UploadSpec][] = [
        ['dataset title', { title: 'Quokka Modélo Collection', publication_type: 'article' }],
        ['dataset description', { desc: 'Models of a wombatine system', publication_type: 'book' }],
        ['dataset tags', { tags: 'Platypus, SPL', publication_type: 'article' }],
        ['author name', { author: { name: 'Zoë Kookaburra' } }],
        ['author affiliation', { author: { name: 'Plain Author', affiliation: 'Universidad de Echidnópolis' } }],
        ['author orcid', { author: { name: 'Plain Author', orcid: '0000-0002-1825-0097' } }],
        ['feature model filename', { file: 'dingo_configurator.uvl' }],
        ['feature model title', { fm: { title: 'Bilby variants' } }],
        ['feature model description', { fm: { desc: 'Numbat product family' } }],
        ['feature model publication doi', { fm: { publication_doi: '10.9999/quoll.2024' } }],
        ['feature model tags', { fm: { tags: 'wallaby' } }],
      ];
      seeded = (await server.hub.db.selectFrom('data_set').select('id').orderBy('id').execute()).map((r) => r.id);
      for (const [column, spec] of specs) {
        const result = await upload(user, spec);
        assert.equal(result.status, 'ok');
        byColumn.set(column, result.dataset_id);
      }
    });
    after(async () => server?.close());

    /** Every synchronized dataset with a model, newest first: the uploads, then the seeded ones. */
    const everyDataset = () => [...[...byColumn.values()].reverse(), ...[...seeded].reverse()];

    it('GET /explore renders the search page with its controls and no results, for anyone', async () => {
      const res = await client().get('/explore');
      assert.equal(res.status, 200);
      for (const control of ['id="explore-form"', 'id="query"', 'id="publication_type"', 'name="sorting" id="sorting-newest" value="newest" checked', 'id="sorting-oldest"', 'id="clear-filters"', 'id="load-more"']) {
        assert.ok(res.text.includes(control), control);
      }
      assert.match(res.text, /<option value="any" selected>Any<\/option>/);
      assert.match(res.text, /<option value="article">Journal Article<\/option>/);
      assert.match(res.text, /<option value="workingpaper">Working Paper<\/option>/);
      assert.doesNotMatch(res.text, /class="card search-result"/, 'results come from the script, not the page');
      assert.match(res.text, /<a class="nav-link active" href="\/explore"><i class="bi bi-search"><\/i> Explore<\/a>/);
      assert.match(res.text, /<script src="\/explore\/js\/scripts.js" defer><\/script>/);
      const script = await fetch(`${server.baseUrl}/explore/js/scripts.js`);
      assert.equal(script.status, 200);
      assert.match(await script.text(), /AbortController/);
    });

    it('GET /explore?query= prefills the search box, escaped', async () => {
      const res = await client().get('/explore?query=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E%20quokka');
      assert.equal(res.status, 200);
      assert.match(res.text, /id="query" name="query" value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; quokka"/);
      const logged = client();
      await logged.login('user2@example.com', '1234');
      assert.match((await logged.get('/explore?query=wombat')).text, /value="wombat"/);
    });

    it('matches each of the eleven columns by case-insensitive substring', async () => {
      const words: Record<string, string> = {
        'dataset title': 'QUOKKA', 'dataset description': 'wombat', 'dataset tags': 'platyp', 'author name': 'kookaburra',
        'author affiliation': 'echidnop', 'author orcid': '1825-0097', 'feature model filename': 'dingo_config',
        'feature model title': 'bilby', 'feature model description': 'NUMBAT', 'feature model publication doi': '10.9999/quoll',
        'feature model tags': 'wallab',
      };
      for (const [column, word] of Object.entries(words)) {
        const res = await explore(server, { query: word });
        assert.equal(res.status, 200);
        assert.deepEqual(idsOf(res.json), [byColumn.get(column)], `${column} found by "${word}"`);
      }
    });

    it('ignores accents and punctuation on both sides (modelo finds Modélo, Zoe finds Zoë)', async () => {
      assert.deepEqual(idsOf((await explore(server, { query: 'modelo' })).json), [byColumn.get('dataset title')]);
      assert.deepEqual(idsOf((await explore(server, { query: 'ZOE' })).json), [byColumn.get('author name')]);
      assert.deepEqual(idsOf((await explore(server, { query: 'échidnöpolis!' })).json), [byColumn.get('author affiliation')]);
      assert.deepEqual(idsOf((await explore(server, { query: '"quokka," (wombat).' })).json).sort(), [byColumn.get('dataset title'), byColumn.get('dataset description')].sort());
    });

    it('ORs the words: a dataset matches when any word appears in any column', async () => {
      const res = await explore(server, { query: 'bilby nothingmatchesthis wallaby' });
      assert.deepEqual(idsOf(res.json), [byColumn.get('feature model tags'), byColumn.get('feature model title')]);
    });

    it('answers the search result objects of decisions section 4, linking the DOI page', async () => {
      const [result] = (await explore(server, { query: 'quokka' })).json;
      assert.deepEqual(Object.keys(result).sort(), [
        // `models` (extensions section 1) comes from the analysis module, enabled in the shipped selection.
        'authors', 'created_at', 'created_at_timestamp', 'dataset_doi', 'description', 'download', 'files', 'files_count', 'id', 'models',
        'publication_doi', 'publication_type', 'tags', 'title', 'total_size_in_bytes', 'total_size_in_human_format', 'url', 'version', 'version_count', 'zenodo',
      ]);
      assert.equal(result.title, 'Quokka Modélo Collection');
      assert.equal(result.publication_type, 'Journal Article');
      assert.match(result.dataset_doi, /^10\./);
      assert.equal(result.url, `http://${server.hub.ctx.config.domain}/doi/${result.dataset_doi}`);
      assert.equal(result.files_count, 1);
      assert.equal(result.files[0].name, 'model.uvl');
    });

    it('a blank, whitespace-only or missing query lists every synchronized dataset with a model, newest first', async () => {
      const expected = everyDataset();
      assert.deepEqual(idsOf((await explore(server, { query: '' })).json), expected);
      assert.deepEqual(idsOf((await explore(server, { query: '  \t ' })).json), expected);
      assert.deepEqual(idsOf((await explore(server, {})).json), expected);
      assert.deepEqual(idsOf((await explore(server, { query: '?!' })).json), expected, 'punctuation alone is blank');
    });

    it('a missing, empty or non-JSON body acts as an empty query, never an error', async () => {
      const expected = everyDataset();
      for (const init of [
        {},
        { body: '', headers: { 'content-type': 'application/json' } },
        { body: '  ', headers: { 'content-type': 'application/json' } },
        { body: 'null', headers: { 'content-type': 'application/json' } },
        { body: 'this is not json', headers: { 'content-type': 'text/plain' } },
        { body: 'query=quokka', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { body: '<xml/>', headers: { 'content-type': 'application/xml' } },
        { body: '[1, 2]', headers: { 'content-type': 'text/plain' } },
        { body: new Uint8Array([0, 255, 254, 1]), headers: { 'content-type': 'application/octet-stream' } },
      ]) {
        const res = await explore(server, undefined, init);
        assert.equal(res.status, 200, JSON.stringify(init));
        assert.deepEqual(idsOf(res.json), expected, JSON.stringify(init));
      }
    });

    it('reads a JSON object sent as plain text (fetch without a content type)', async () => {
      const res = await explore(server, undefined, { body: '{"query": "quokka"}' });
      assert.equal(res.status, 200);
      assert.deepEqual(idsOf(res.json), [byColumn.get('dataset title')]);
    });

    it('answers 400 JSON to malformed JSON, or JSON that is not an object, under a JSON content type', async () => {
      for (const [body, message] of [
        ['{"query": "quokka"', /not valid JSON/],
        ['{bad', /not valid JSON/],
        ['[1, 2]', /must be a JSON object/],
        ['"quokka"', /must be a JSON object/],
        ['42', /must be a JSON object/],
        ['true', /must be a JSON object/],
      ] as const) {
        for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
          const res = await explore(server, undefined, { body, headers: { 'content-type': type } });
          assert.equal(res.status, 400, `${type} ${body}`);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          assert.match(res.json.message, message, `${type} ${body}`);
        }
      }
    });

    it('needs no CSRF token and no login (read-only)', async () => {
      const res = await explore(server, { query: 'quokka' }, { headers: { 'content-type': 'application/json', 'x-csrftoken': 'forged' } });
      assert.equal(res.status, 200);
      assert.equal(res.json.length, 1);
    });

    it('filters by exact publication type; any and unknown values do not filter', async () => {
      const articles = (await explore(server, { publication_type: 'article' })).json;
      assert.deepEqual(idsOf(articles), [byColumn.get('dataset tags'), byColumn.get('dataset title')]);
      assert.ok(articles.every((r: { publication_type: string }) => r.publication_type === 'Journal Article'));
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'book', query: '' })).json), [byColumn.get('dataset description')]);
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'book', query: 'quokka' })).json), []);
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'Journal Article' })).json), everyDataset(), 'a label is not a value: ignored');
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'nonsense' })).json), everyDataset());
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'any' })).json), everyDataset());
      assert.deepEqual(idsOf((await explore(server, { publication_type: 'ARTICLE' })).json), everyDataset(), 'exact match only');
    });

    it('filters by tags: OR of case-insensitive substrings of the dataset tags column only', async () => {
      assert.deepEqual(idsOf((await explore(server, { tags: ['PLATY'] })).json), [byColumn.get('dataset tags')]);
      const tagged = idsOf((await explore(server, { tags: ['platypus', 'tag1'] })).json);
      assert.deepEqual(tagged, [byColumn.get('dataset tags'), ...[...seeded].reverse()]);
      assert.deepEqual(idsOf((await explore(server, { tags: ['wallaby'] })).json), [], 'feature model tags are not the dataset tags column');
      assert.deepEqual(idsOf((await explore(server, { tags: ['tag1'], query: 'quokka' })).json), []);
      assert.deepEqual(idsOf((await explore(server, { tags: [] })).json), everyDataset());
    });

    it('sorts newest or oldest by creation time; an unknown sorting is newest', async () => {
      assert.deepEqual(idsOf((await explore(server, { sorting: 'oldest' })).json), [...everyDataset()].reverse());
      assert.deepEqual(idsOf((await explore(server, { sorting: 'newest' })).json), everyDataset());
      assert.deepEqual(idsOf((await explore(server, { sorting: 'sideways' })).json), everyDataset());
      const oldest = (await explore(server, { sorting: 'oldest', query: 'bilby wallaby' })).json;
      assert.deepEqual(idsOf(oldest), [byColumn.get('feature model title'), byColumn.get('feature model tags')]);
    });

    it('pages the array with limit and offset', async () => {
      const all = everyDataset();
      assert.deepEqual(idsOf((await explore(server, { limit: 3 })).json), all.slice(0, 3));
      assert.deepEqual(idsOf((await explore(server, { limit: 3, offset: 3 })).json), all.slice(3, 6));
      assert.deepEqual(idsOf((await explore(server, { offset: all.length - 2 })).json), all.slice(-2));
      assert.deepEqual((await explore(server, { limit: 5, offset: all.length })).json, []);
      assert.deepEqual(idsOf((await explore(server, { sorting: 'oldest', limit: 2, offset: 1 })).json), [...all].reverse().slice(1, 3));
    });

    it('refuses fields of the wrong type with 400 and a message', async () => {
      for (const body of [{ query: 5 }, { tags: 'tag1' }, { tags: [1] }, { limit: -1 }, { limit: 2.5 }, { limit: 1e300 }, { offset: 2 ** 31 }, { offset: '3' }, { publication_type: ['book'] }, { sorting: true }]) {
        const res = await explore(server, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.json.message, 'string');
        assert.doesNotMatch(res.text, /at .*\.ts:\d+/);
      }
    });

    it('refuses a deeply nested body with 400, not a 500 from the kept answers\' key', async () => {
      const depth = 100_000;
      // `models` is read by the search itself (extensions section 1), after the answer's key is made.
      const body = `{"query": "quokka", "models": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}`;
      const res = await explore(server, undefined, { body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(typeof res.json.message, 'string');
    });

    it('refuses more than 100 different words or tags with 400, and accepts 100', async () => {
      const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`);
      assert.equal((await explore(server, { query: [...words(100), ...words(100), 'quokka'].join(' ') })).status, 400, '101 different words');
      const hundred = await explore(server, { query: [...words(99), ...words(99), 'quokka'].join(' ') });
      assert.equal(hundred.status, 200, 'repeated words count once');
      assert.deepEqual(idsOf(hundred.json), [byColumn.get('dataset title')]);
      const many = await explore(server, { query: words(60_000).join(' ') });
      assert.equal(many.status, 400);
      assert.match(many.json.message, /"query" may hold at most 100 different words/);
      const tags = await explore(server, { tags: words(101) });
      assert.equal(tags.status, 400);
      assert.match(tags.json.message, /"tags" may hold at most 100 tags/);
      assert.equal((await explore(server, { tags: [...words(99), 'platypus'] })).json.length, 1);
    });

    it('only synchronized datasets with at least one feature model appear', async () => {
      // A dataset whose deposit failed: uploaded through a second instance on the same database
      // whose deposit repository refuses connections, so it stays unsynchronized.
      const failing = await startTestServer({
        databaseUrl: server.database.url, workingDir: server.workingDir,
        env: { ZENODO_ACCESS_TOKEN: 'token', ZENODO_API_URL: 'http://127.0.0.1:9/api' },
      });
      try {
        const user = new TestClient(failing.baseUrl);
        await user.login('user2@example.com', '1234');
        await user.get('/dataset/upload');
        const partial = await upload(user, { title: 'Unsynchronized kangaroo' });
        assert.equal(partial.status, 'partial');
      } finally {
        await failing.close();
      }
      assert.deepEqual((await explore(server, { query: 'kangaroo' })).json, []);
      // A synchronized dataset without any feature model (written directly: no form makes one).
      const owner = await userIdByEmail(server.hub.db, 'user1@example.com');
      const empty = await insertDatasetRow(server.hub.db, owner, { title: 'Modelless koala', doi: '10.1234/koala', createdAt: new Date().toISOString() });
      await server.hub.ctx.events.emit('dataset.saved', { datasetId: empty });
      assert.deepEqual((await explore(server, { query: 'koala' })).json, []);
      assert.deepEqual(idsOf((await explore(server, {})).json), everyDataset());
    });

    it('keeps the index current on writes: a renamed dataset is found by its new title at once', async () => {
      const user = client();
      await user.login('user1@example.com', '1234');
      await user.get('/dataset/upload');
      const id = byColumn.get('dataset title')!;
      const res = await user.request('PUT', `/api/v1/datasets/${id}`, { json: { name: 'Renamed echinoderm collection' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(idsOf((await explore(server, { query: 'echinoderm' })).json), [id]);
      assert.deepEqual((await explore(server, { query: 'quokka' })).json, []);
    });

    it('re-indexes at startup a dataset edited by an instance without explore (its revision moved)', async () => {
      const selection = readModuleSelection(loadConfig({ HUB_MODULES_FILE: projectPath('modules.json') })).filter((m) => m !== 'explore');
      const without = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir, modules: selection });
      const id = byColumn.get('feature model tags')!;
      try {
        const user = new TestClient(without.baseUrl);
        await user.login('user1@example.com', '1234');
        await user.get('/dataset/upload');
        const res = await user.request('PUT', `/api/v1/datasets/${id}`, { json: { name: 'Thylacine rediscovered', tags: 'marsupial' } });
        assert.equal(res.status, 200, res.text);
      } finally {
        await without.close();
      }
      // Nothing told this instance's index: the edit is not found yet.
      assert.deepEqual((await explore(server, { query: 'thylacine' })).json, []);
      const again = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir });
      try {
        assert.deepEqual(idsOf((await explore(again, { query: 'thylacine' })).json), [id]);
        assert.deepEqual(idsOf((await explore(again, { tags: ['marsupial'] })).json), [id]);
      } finally {
        await again.close();
      }
      assert.deepEqual(idsOf((await explore(server, { query: 'thylacine' })).json), [id], 'the index is shared by every instance');
    });

    it('rebuilds an empty index at startup', async () => {
      await server.hub.db.deleteFrom('explore_search').execute();
      if (dialect.name === 'sqlite') await sql`DELETE FROM explore_search_fts`.execute(server.hub.db);
      assert.deepEqual((await explore(server, {})).json, []);
      const again = await startTestServer({ databaseUrl: server.database.url, workingDir: server.workingDir });
      try {
        assert.deepEqual(idsOf((await explore(again, {})).json), everyDataset());
        assert.deepEqual(idsOf((await explore(again, { query: 'numbat' })).json), [byColumn.get('feature model description')]);
      } finally {
        await again.close();
      }
      assert.deepEqual(idsOf((await explore(server, {})).json), everyDataset(), 'the index is shared by every instance');
    });
  });
}

describe('explore with many datasets [sqlite]', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true });
    await seedSynthetic(server.hub.ctx, 45);
  });
  after(async () => server?.close());

  it('serves a one-word query and a blank query page by page from the synthetic catalogue', async () => {
    const all = idsOf((await explore(server, { query: 'synthetic' })).json);
    assert.equal(all.length, 45);
    const pages = [];
    for (let offset = 0; offset < 45; offset += 20) pages.push(...idsOf((await explore(server, { query: 'synthetic', limit: 20, offset })).json));
    assert.deepEqual(pages, all);
    assert.equal((await explore(server, { limit: 20 })).json.length, 20);
    assert.equal((await explore(server, {})).json.length, 49, 'the four seeded datasets and the synthetic ones');
  });
});

describe('explore disabled', () => {
  it('removes the page, the search and the navigation entry, and nothing else breaks', async () => {
    const selection = readModuleSelection(loadConfig({ HUB_MODULES_FILE: projectPath('modules.json') })).filter((m) => m !== 'explore');
    const server = await startTestServer({ modules: selection, seed: true });
    try {
      assert.equal((await fetch(`${server.baseUrl}/explore`)).status, 404);
      assert.equal((await explore(server, { query: '' })).status, 404);
      assert.equal((await fetch(`${server.baseUrl}/explore/js/scripts.js`)).status, 404);
      const home = await fetch(`${server.baseUrl}/`);
      assert.equal(home.status, 200);
      assert.doesNotMatch(await home.text(), /href="\/explore"/);
      const user = new TestClient(server.baseUrl);
      assert.equal((await user.login('user1@example.com', '1234')).status, 302);
      assert.equal((await user.get('/profile/summary')).status, 200);
      assert.equal((await user.get('/doi/10.1234/dataset1/')).status, 200);
    } finally {
      await server.close();
    }
  });
});
