// The soak's checks at the end of the run (soak.ts): confirmed uploads all there (rows through the
// API of the other instance, bytes in the store by SHA-256), view and download counts equal to
// what was sent, and each instance's memory after warm-up.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { loadConfig } from '../../src/core/config.ts';
import { connect } from '../../src/core/db/connect.ts';
import { createFileStore } from '../../src/core/storage/index.ts';
import { bearer, type Ledger } from './soak.workload.ts';

export interface Check {
  ok: boolean;
  message: string;
}

export interface Counts {
  views: Map<number, number>;
  zipDownloads: Map<number, number>;
  fileDownloads: Map<number, number>;
}

export type MemorySamples = { at: number; kib: number }[][];

/** The counts as the database holds them; the first call also fills the ledger with the seeded DOIs and files. */
export async function readCounts(databaseUrl: string, ledger: Ledger): Promise<Counts> {
  const db = connect(databaseUrl);
  try {
    if (ledger.dois.size === 0) {
      const published = await db.selectFrom('data_set').innerJoin('ds_meta_data as md', 'md.id', 'data_set.ds_meta_data_id')
        .select(['data_set.id', 'md.dataset_doi']).where('md.dataset_doi', 'is not', null).orderBy('data_set.id').execute();
      for (const row of published) ledger.dois.set(row.dataset_doi!, row.id);
      ledger.datasetIds.push(...published.map((r) => r.id));
      const files = await db.selectFrom('file').innerJoin('feature_model as fm', 'fm.id', 'file.feature_model_id')
        .select('file.id').where('fm.data_set_id', 'in', ledger.datasetIds).orderBy('file.id').execute();
      ledger.fileIds.push(...files.map((f) => f.id));
    }
    const datasets = await db.selectFrom('data_set').select(['id', 'view_count', 'download_count']).execute();
    const files = await sql<{ file_id: number; n: number | string }>`SELECT file_id, COUNT(*) AS n FROM file_download_record GROUP BY file_id`.execute(db);
    return {
      views: new Map(datasets.map((d) => [d.id, Number(d.view_count)])),
      zipDownloads: new Map(datasets.map((d) => [d.id, Number(d.download_count)])),
      fileDownloads: new Map(files.rows.map((f) => [Number(f.file_id), Number(f.n)])),
    };
  } finally {
    await db.destroy();
  }
}

function differences(label: string, before: Map<number, number>, sent: Map<number, number>, now: Map<number, number>): string[] {
  const out: string[] = [];
  for (const [id, count] of sent) {
    const expected = (before.get(id) ?? 0) + count;
    if ((now.get(id) ?? 0) !== expected) out.push(`${label} of ${id}: ${now.get(id) ?? 0}, sent ${expected}`);
  }
  return out;
}

/** Every view and download the hub answered 200 is counted once; the counting may trail the answer a little. */
export async function checkCounts(databaseUrl: string, ledger: Ledger, before: Counts): Promise<Check> {
  let wrong: string[] = [];
  for (let attempt = 0; attempt < 40; attempt++) {
    const now = await readCounts(databaseUrl, ledger);
    wrong = [
      ...differences('views', before.views, ledger.viewsSent, now.views),
      ...differences('zip downloads', before.zipDownloads, ledger.zipDownloadsSent, now.zipDownloads),
      ...differences('file downloads', before.fileDownloads, ledger.fileDownloadsSent, now.fileDownloads),
    ];
    if (wrong.length === 0) break;
    await sleep(500);
  }
  const total = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const sent = `${total(ledger.viewsSent)} views of ${ledger.viewsSent.size} datasets, ${total(ledger.zipDownloadsSent)} zip downloads, ${total(ledger.fileDownloadsSent)} file downloads`;
  return wrong.length === 0
    ? { ok: true, message: `counts: ${sent}, each counted exactly` }
    : { ok: false, message: `counts: ${sent}; differ: ${wrong.slice(0, 10).join('; ')}` };
}

/** Each confirmed upload: its rows through the API (of the instance that did not take it) and its bytes in the store. */
export async function checkUploads(baseUrls: string[], ledger: Ledger, env: Record<string, string>): Promise<Check> {
  const missing: string[] = [];
  const db = connect(env.DATABASE_URL!);
  const store = createFileStore(loadConfig(env));
  try {
    for (const [n, upload] of ledger.uploads.entries()) {
      const read = await bearer(baseUrls[(n + 1) % baseUrls.length]!, upload.owner.token!, 'GET', `/api/v1/datasets/${upload.datasetId}`);
      const names = read.status === 200 ? (read.json.files as { file_name: string }[]).map((f) => f.file_name) : [];
      const owner = await db.selectFrom('data_set').select('user_id').where('id', '=', upload.datasetId).executeTakeFirst();
      for (const file of upload.files) {
        if (!names.includes(file.name)) {
          missing.push(`dataset ${upload.datasetId} (${upload.via}): ${file.name} not listed (${read.status})`);
          continue;
        }
        const content = owner && await store.get(`user_${owner.user_id}/dataset_${upload.datasetId}/${file.name}`);
        const hash = createHash('sha256');
        if (content) for await (const chunk of content.body) hash.update(chunk as Buffer);
        if (!content || hash.digest('hex') !== file.sha256) missing.push(`dataset ${upload.datasetId} (${upload.via}): ${file.name} not stored as uploaded`);
      }
    }
  } finally {
    await store.close();
    await db.destroy();
  }
  const byWay = (via: string) => ledger.uploads.filter((u) => u.via === via).length;
  const summary = `uploads: ${ledger.uploads.length} confirmed (${byWay('page')} through the page, ${byWay('api')} through the API), ${ledger.dois.size} DOIs`;
  return missing.length === 0
    ? { ok: true, message: `${summary}; every one listed and stored with its bytes` }
    : { ok: false, message: `${summary}; missing: ${missing.slice(0, 10).join('; ')}` };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * RSS after warm-up (the first fifth of the run, at least 5 s) against RSS at the end: the median
 * of the samples of a window (a tenth of the run, at least 3 s) at each place, so one sample taken
 * just before a garbage collection does not decide.
 */
export function checkMemory(memory: MemorySamples, seconds: number): Check {
  const warmUp = Math.max(5, seconds / 5);
  const window = Math.max(3, seconds / 10);
  const lines: string[] = [];
  let ok = true;
  for (const [i, samples] of memory.entries()) {
    const after = median(samples.filter((s) => s.at >= warmUp && s.at < warmUp + window).map((s) => s.kib));
    const end = median(samples.filter((s) => s.at >= seconds - window).map((s) => s.kib));
    const growth = (end - after) / after;
    if (!(growth < 0.1)) ok = false;
    lines.push(`instance ${i + 1} ${(after / 1024).toFixed(0)} MiB after warm-up -> ${(end / 1024).toFixed(0)} MiB at the end (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %)`);
  }
  return { ok, message: `memory: ${lines.join('; ')} (limit +10 %)` };
}
