// Service-level rules of auth on every dialect: one transaction for user and profile, hashing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../../../test/support/databases.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { EmailInUseError } from './auth.service.ts';
import { hashPassword, verifyPassword } from './password.ts';

for (const dialect of testDialects()) {
  describe(`auth service [${dialect.name}]`, () => {
    let server: TestServer;
    before(async () => { server = await startTestServer({ databaseBaseUrl: dialect.baseUrl, seed: true }); });
    after(async () => { await server?.close(); });
    const auth = () => server.hub.ctx.services.auth;
    const users = async (email: string) => server.hub.db.selectFrom('user').select('id').where('email', '=', email).execute();

    it('createWithProfile rolls back the user when the profile cannot be written', async () => {
      const email = 'rollback@example.com';
      // A NULL name violates user_profile.name NOT NULL on every dialect, after the user row was inserted.
      await assert.rejects(auth().createWithProfile({ email, password: 'pw', name: null as unknown as string, surname: 'X' }));
      assert.deepEqual(await users(email), []);
      assert.equal(await auth().isEmailAvailable(email), true);
    });

    it('createWithProfile refuses a used email with EmailInUseError ("<email> in use"), case-insensitively', async () => {
      await assert.rejects(auth().createWithProfile({ email: 'USER1@example.com', password: 'pw', name: 'A', surname: 'B' }),
        (error: unknown) => error instanceof EmailInUseError && error.message === 'user1@example.com in use');
      assert.equal(await auth().isEmailAvailable('user1@example.com'), false);
    });

    it('login answers ok for the right password only', async () => {
      assert.equal((await auth().login('user1@example.com', '1234', '10.0.0.1')).ok, true);
      assert.deepEqual(await auth().login('user1@example.com', '12345', '10.0.0.2'), { ok: false, reason: 'invalid' });
    });
  });
}

describe('password hashing', () => {
  it('salts: the same password hashes differently each time and verifies against both', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('correct horse', a), true);
    assert.equal(await verifyPassword('correct horse', b), true);
    assert.equal(await verifyPassword('wrong horse', a), false);
    assert.equal(await verifyPassword('x', 'not-a-hash'), false);
  });
});
