// Where a dataset's models came from (extensions section 13), written as the URL import writes it
// (dataset/staging/import-sources.ts), for tests of the modules that show the sources (citation,
// oai) without fetching anything. The dataset's revision is raised as every content change raises
// it, so that summaries kept before the row was added are read again.
import type { TestServer } from './server.ts';

export async function addImportSource(server: TestServer, datasetId: number, source: { url: string; doi?: string | null }): Promise<void> {
  const { db } = server.hub.ctx;
  const user = await db.selectFrom('data_set').select('user_id').where('id', '=', datasetId).executeTakeFirstOrThrow();
  await db.insertInto('import_source').values({
    user_id: user.user_id, dataset_id: datasetId, staged_name: null, url: source.url, doi: source.doi ?? null, created_at: new Date().toISOString(),
  }).execute();
  await db.updateTable('data_set').set((eb) => ({ revision: eb('revision', '+', 1) })).where('id', '=', datasetId).execute();
}
