// Service-level rules of profile (specification, profile edit rules 1 to 4) on every dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { insertDatasetRow, userIdByEmail } from '../../../test/support/fixtures.ts';

for (const dialect of testDialects()) {
  describe(`profile service [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });
    const profiles = () => server.hub.ctx.services.profile;

    it('updateProfile answers [instance, null] on success and [null, errors] on failure', async () => {
      const userId = await userIdByEmail(server.hub.db, 'user1@example.com');
      const profile = (await profiles().getByUserId(userId))!;
      const [ok, none] = await profiles().updateProfile(profile.id, { name: 'Johnny', submit: 'x', csrf_token: 'y' } as Record<string, string>);
      assert.equal(none, null);
      assert.equal(ok!.name, 'Johnny');
      assert.equal(ok!.surname, 'Doe');
      const [nothing, errors] = await profiles().updateProfile(profile.id, { orcid: 'bad' });
      assert.equal(nothing, null);
      assert.deepEqual(Object.keys(errors!), ['orcid']);
      assert.equal((await profiles().getByUserId(userId))!.orcid, null);
    });

    it('summaryForUser pages the datasets 5 at a time, newest first, with the total', async () => {
      const userId = await userIdByEmail(server.hub.db, 'user2@example.com');
      const before = (await profiles().summaryForUser(userId, 1)).total;
      for (let i = 0; i < 6; i++) {
        await insertDatasetRow(server.hub.db, userId, { title: `S${i}`, createdAt: `2030-01-0${i + 1}T00:00:00.000Z` });
      }
      const page1 = await profiles().summaryForUser(userId, 1);
      assert.equal(page1.total, before + 6);
      assert.equal(page1.datasets.length, 5);
      assert.equal(page1.datasets[0]!.title, 'S5');
      assert.equal(page1.pagination.perPage, 5);
      assert.equal(page1.pagination.pages, Math.ceil((before + 6) / 5));
      assert.equal(page1.pagination.hasNext, true);
      assert.equal(page1.pagination.hasPrev, false);
    });
  });
}
