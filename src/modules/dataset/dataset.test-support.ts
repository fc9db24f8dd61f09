// Shared steps of the dataset HTTP tests: logging in, staging files, reading zips, counting rows.
import assert from 'node:assert/strict';
import { TestClient, type TestResponse } from '../../../test/support/client.ts';
import type { TestServer } from '../../../test/support/server.ts';
export { download, unzip } from '../../../test/support/zip.ts';

export const VALID_UVL = `namespace Phone

features
    Phone {abstract}
        mandatory
            Screen
                alternative
                    Small
                    Large
        optional
            Camera

constraints
    Camera => Large
`;

/** A model with a syntax error on line 3. */
export const INVALID_UVL = `features
    Phone
        INVALID {{{ ]]
`;

export async function loggedIn(server: TestServer, email: string, password = '1234'): Promise<TestClient> {
  const client = new TestClient(server.baseUrl);
  const res = await client.login(email, password);
  assert.equal(res.status, 302, `login of ${email}`);
  // A page read after login gives the client the session's CSRF token.
  await client.get('/dataset/upload');
  return client;
}

export { newUser } from '../../../test/support/accounts.ts';

export async function stage(client: TestClient, name: string, content: string | Buffer, options: { field?: string; csrf?: boolean } = {}): Promise<TestResponse> {
  const form = new FormData();
  form.append(options.field ?? 'file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return client.post('/dataset/file/upload', { body: form, csrf: options.csrf });
}

export function modeltool(server: TestServer) {
  return server.hub.ctx.services.modeltool;
}

export async function count(server: TestServer, table: 'data_set' | 'ds_meta_data' | 'feature_model' | 'file' | 'author' | 'ds_view_record' | 'ds_download_record' | 'fm_meta_data' | 'ds_metrics'): Promise<number> {
  const row = await server.hub.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The minimal valid upload form for staged files, with the given extra fields. */
export function uploadForm(files: string[], extra: Record<string, string> = {}): Record<string, string> {
  const form: Record<string, string> = { title: 'My dataset', desc: 'Some models', publication_type: 'none', ...extra };
  files.forEach((name, j) => { form[`feature_models-${j}-uvl_filename`] = name; });
  return form;
}
