// Feature names holding a comma (UVL allows any name in quotes): the configure body takes them
// whole, the sample query takes them quoted as in UVL (`select="Sun, Roof"`), and such a sample
// is stored under its own key, not under that of the features Sun and Roof.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { storeModelFile } from '../../../test/support/fixtures.ts';
import { fetchJson } from '../../../test/support/uploads.ts';
import { waitForResult } from './configurator.test-support.ts';

/** Sun and Roof exclude each other; "Sun, Roof" is a third feature of its own. */
const ROOF_UVL = 'features\n    Car\n        optional\n            Sun\n            Roof\n            "Sun, Roof"\nconstraints\n    !(Sun & Roof)\n';

for (const dialect of testDialects().slice(0, 1)) {
  describe(`the configurator with a feature name holding a comma [${dialect.name}]`, () => {
    let server: TestServer;
    let file = 0;

    before(async () => {
      server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true, env: { ANALYSIS_WORKERS: '0' } });
      file = (await storeModelFile(server, { label: 'Roof', content: ROOF_UVL, name: 'roof.uvl' })).fileId;
    });
    after(async () => server?.close());

    it('configures it by its whole name in the JSON body', async () => {
      const res = await fetchJson(`${server.baseUrl}/api/v1/files/${file}/configure`, {
        method: 'POST', body: JSON.stringify({ selected: ['Sun, Roof'] }), headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.remaining, '3');
      assert.equal(res.json.features['Sun, Roof'], 'selected');
    });

    it('samples under it when quoted as in UVL, apart from the sample under Sun and Roof', async () => {
      const samples = `${server.baseUrl}/api/v1/files/${file}/samples?kind=uniform&n=30&seed=4`;
      const quoted = await waitForResult(`${samples}&select=${encodeURIComponent('"Sun, Roof"')}`);
      assert.ok(quoted.configurations.every((c: string[]) => c.includes('Sun, Roof')), JSON.stringify(quoted.configurations));
      const conflicting = await fetch(`${samples}&select=Sun,Roof`);
      assert.notEqual(conflicting.status, 500);
      const rows = await server.hub.db.selectFrom('model_sample').select('params').where('kind', '=', 'uniform').execute();
      assert.ok(rows.some((r) => r.params === 'n=30;seed=4;select="Sun, Roof";deselect='), JSON.stringify(rows));
      assert.ok(rows.every((r) => r.params !== 'n=30;seed=4;select=Sun, Roof;deselect='), 'no key that reads as two names');
    });
  });
}
