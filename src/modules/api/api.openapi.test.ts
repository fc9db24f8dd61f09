// The OpenAPI document (extensions section 3): valid OpenAPI 3.1, generated from the routes'
// schemas, covering exactly the /api/v1 routes Fastify registered; and the /api/docs page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { newUser } from '../../../test/support/accounts.ts';
import { bearer, createToken } from '../../../test/support/api.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** `/api/v1/datasets/:id(^\\d+$)/files` as OpenAPI writes it: `/api/v1/datasets/{id}/files`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)(\([^)]*\))?/g, '{$1}');

for (const dialect of testDialects()) {
  describe(`OpenAPI document [${dialect.name}]`, () => {
    let server: TestServer;
    let doc: any;
    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl });
      const res = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      doc = await res.json();
    });
    after(async () => { await server?.close(); });

    it('validates against the OpenAPI 3.1 schema', async () => {
      assert.equal(doc.openapi, '3.1.0');
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc));
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
      assert.equal(validator.version, '3.1');
      // The validator does refuse a broken document (a response without its required description).
      const broken = structuredClone(doc);
      delete broken.paths['/api/v1/search'].post.responses['200'].description;
      assert.equal((await new Validator().validate(broken)).valid, false);
    });

    it('lists every /api/v1 operation of Fastify\'s route table once, and nothing else', async () => {
      const table = server.hub.ctx.services.api.routeTable();
      assert.ok(table.length >= 15, 'the route table was recorded');
      // Routes answered alike with and without a trailing slash are one operation, documented with
      // the slash: the twin without it is left out.
      const twin = (r: { method: string; url: string }) => !r.url.endsWith('/') && table.some((o) => o.method === r.method && o.url === `${r.url}/`);
      const fromFastify = new Set(table.filter((r) => !twin(r)).map((r) => `${r.method} ${openapiPath(r.url)}`));
      const documented = new Set<string>();
      for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
        assert.ok(path.startsWith('/api/v1'), `${path} is an API path`);
        assert.ok(path.endsWith('/') || !(`${path}/` in doc.paths), `${path} is listed once, not also as ${path}/`);
        for (const method of METHODS) {
          if (!item[method]) continue;
          documented.add(`${method.toUpperCase()} ${path}`);
          const answers = Object.keys(item[method].responses ?? {});
          assert.ok(answers.some((code) => code.startsWith('2')), `${method.toUpperCase()} ${path} is an operation, not only ${answers.join(', ')}`);
        }
      }
      // What Fastify has and the document leaves out answers 405 to a write token: no operation.
      const token = await createToken((await newUser(server, 'Docs')).client, ['read', 'write']);
      for (const left of [...fromFastify].filter((r) => !documented.has(r))) {
        const [method, path] = left.split(' ') as [string, string];
        const res = await bearer(server.baseUrl, token, method, path.replace(/\{[^}]+\}/g, '1'), {});
        assert.equal(res.status, 405, `${left} is left out of the document, yet answers ${res.status}`);
      }
      assert.ok([...fromFastify].some((r) => !documented.has(r)), 'the 405 routes exist and are left out');
      for (const r of documented) assert.ok(fromFastify.has(r), `${r} is a route`);
      // And the other way round: each documented operation is a route Fastify answers.
      for (const route of table) assert.ok(server.hub.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url}`);
      for (const expected of [
        'POST /api/v1/datasets/{id}/files', 'DELETE /api/v1/datasets/{id}/files/{file_id}', 'POST /api/v1/datasets/{id}/publish',
        'GET /api/v1/files/{file_id}', 'POST /api/v1/search', 'GET /api/v1/datasets/', 'GET /api/v1/openapi.json',
      ]) assert.ok(documented.has(expected), expected);
    });

    it('is generated from the routes\' schemas: parameters, bodies, responses, the bearer scheme', () => {
      const create = doc.paths['/api/v1/datasets/'].post;
      assert.deepEqual(Object.keys(create.requestBody.content), ['application/json']);
      assert.ok(create.requestBody.content['application/json'].schema.properties.publication_type.enum.includes('report'));
      assert.ok(create.responses['201'] && create.responses['400'] && create.responses['429']);
      const addFile = doc.paths['/api/v1/datasets/{id}/files'].post;
      assert.deepEqual(addFile.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
      assert.equal(addFile.responses['201'].content['application/json'].schema.properties.file_id.type, 'integer');
      assert.equal(doc.components.securitySchemes.token.scheme, 'bearer');
    });

    it('documents the analysis endpoint from its own schema: a summary, the file id, the answer and its 401, 404 and 429', () => {
      const analysis = doc.paths['/api/v1/files/{id}/analysis'].get;
      assert.ok(analysis.summary, 'a summary');
      assert.deepEqual(analysis.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
      for (const code of ['200', '401', '404', '429']) assert.ok(analysis.responses[code], `${code} is documented`);
      assert.deepEqual(analysis.responses['200'].content['application/json'].schema.required, ['file_id', 'sha256', 'status']);
    });

    it('/api/docs renders the document with Swagger UI served by the hub itself (no CDN)', async () => {
      const page = await fetch(`${server.baseUrl}/api/docs`);
      assert.equal(page.status, 200);
      const html = await page.text();
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      assert.ok(sources.length >= 3);
      for (const source of sources) {
        assert.ok(!/^(https?:)?\/\//.test(source), `${source} is local`);
        const asset = await fetch(new URL(source, `${server.baseUrl}/api/docs`));
        assert.equal(asset.status, 200, source);
        await asset.arrayBuffer();
      }
      const json = await fetch(`${server.baseUrl}/api/docs/json`);
      assert.deepEqual(await json.json(), doc);
    });
  });
}
