// Accounts for HTTP tests: a fresh user signed up through the form, as a person would.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { TestClient } from './client.ts';
import type { TestServer } from './server.ts';

/** A new account, so that a test's staging folder and datasets are its own. */
export async function newUser(server: TestServer, name = 'Test'): Promise<{ client: TestClient; email: string; userId: number }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const client = new TestClient(server.baseUrl);
  await client.get('/signup/');
  const res = await client.post('/signup/', { form: { email, password: 'test-password-1', name, surname: 'Tester' } });
  assert.equal(res.status, 302, 'signup');
  await client.get('/dataset/upload');
  const row = await server.hub.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return { client, email, userId: row.id };
}

