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

/**
 * Per instance, `at` seconds into the run, after a collection of the main thread: RSS and the
 * main thread's heap in KiB, and how many worker threads were alive.
 */
export type MemorySamples = { at: number; kib: number; heapKib: number; workers: number }[][];

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

/** The two windows compared: from the end of warm-up (the first fifth, at least 5 s), and the last one; each a tenth of the run, at least 3 s. */
export const memoryWindows = (seconds: number) => ({ warmUp: Math.max(5, seconds / 5), window: Math.max(3, seconds / 10) });

const mib = (kib: number) => (kib / 1024).toFixed(0);

type Sample = MemorySamples[number][number];

const percent = (growth: number) => `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`;

/** The worker count most samples of both windows share (the later one wins a tie), if any. */
function commonWorkers(first: Sample[], last: Sample[]): number | undefined {
  let best: number | undefined;
  let bestCount = 0;
  for (const workers of new Set(first.map((s) => s.workers))) {
    const count = Math.min(first.filter((s) => s.workers === workers).length, last.filter((s) => s.workers === workers).length);
    if (count > 0 && count >= bestCount) [best, bestCount] = [workers, count];
  }
  return best;
}

/**
 * Memory after warm-up against memory at the end, each the median of a window's samples (all
 * taken after a collection of every thread): RSS, the process's memory, compared only between
 * samples with as many worker threads alive (the hub starts workers on demand and stops idle
 * ones, tens of MiB each, so RSS across that measures their life cycle, not a leak), must grow
 * by less than 10 %. The main thread's heap is reported beside it; it decides only where no two
 * samples had as many workers alive. It grows by design while bounded caches fill (per-visitor
 * sessions and visit records: every soak visitor is new), so it is not held to the limit itself.
 */
export function checkMemory(memory: MemorySamples, seconds: number): Check {
  const { warmUp, window } = memoryWindows(seconds);
  const lines: string[] = [];
  let ok = true;
  for (const [i, samples] of memory.entries()) {
    const first = samples.filter((s) => s.at >= warmUp && s.at < warmUp + window);
    const last = samples.filter((s) => s.at >= seconds - window);
    const heapAfter = median(first.map((s) => s.heapKib));
    const heapEnd = median(last.map((s) => s.heapKib));
    const heapGrowth = (heapEnd - heapAfter) / heapAfter;
    const heap = `heap ${mib(heapAfter)} -> ${mib(heapEnd)} MiB (${percent(heapGrowth)})`;
    const workers = commonWorkers(first, last);
    if (workers === undefined) {
      if (!(heapGrowth < 0.1)) ok = false;
      const counts = (list: Sample[]) => [...new Set(list.map((s) => s.workers))].join('/');
      lines.push(`instance ${i + 1} RSS not comparable (${counts(first)} workers alive after warm-up, ${counts(last)} at the end), so the ${heap} decides`);
      continue;
    }
    const after = median(first.filter((s) => s.workers === workers).map((s) => s.kib));
    const end = median(last.filter((s) => s.workers === workers).map((s) => s.kib));
    const growth = (end - after) / after;
    if (!(growth < 0.1)) ok = false;
    lines.push(`instance ${i + 1} RSS ${mib(after)} -> ${mib(end)} MiB (${percent(growth)}, ${workers} workers alive), ${heap}`);
  }
  return { ok, message: `memory after a collection, after warm-up -> at the end: ${lines.join('; ')} (limit +10 %)` };
}
