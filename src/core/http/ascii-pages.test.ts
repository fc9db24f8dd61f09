// The busiest pages go out as ASCII when what they show is ASCII: the layout and the templates
// write their typographic characters as character references (&middot;, &hellip;). A client that
// reads an answer into a JavaScript string keeps ASCII one byte per character on a fast path; a
// single '·' in the title made the whole page two bytes per character and halved the requests
// such a client could make of the DOI page (docs/decisions-taken.md, issue 40). Browsers show the
// same text either way.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

describe('pages in ASCII', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ seed: true });
  });
  after(async () => {
    await server?.close();
  });

  for (const [label, path, status] of [
    ['the DOI page', '/doi/10.1234/dataset1/', 200],
    ['the home page', '/', 200],
    ['the explore page', '/explore', 200],
    ['a 404 page', '/no/such/page', 404],
  ] as const) {
    it(`${label} has no byte beyond ASCII, and its title is the same text`, async () => {
      const res = await fetch(`${server.baseUrl}${path}`);
      assert.equal(res.status, status);
      const bytes = Buffer.from(await res.arrayBuffer());
      const beyond = bytes.findIndex((b) => b > 0x7f);
      assert.equal(beyond, -1, `byte ${beyond}: ${bytes.subarray(Math.max(0, beyond - 40), beyond + 10).toString('utf8')}`);
      assert.match(bytes.toString('latin1'), /<title>[^<]+ &middot; UVL Hub<\/title>/);
    });
  }
});
