// The worker thread that checks a staged model's bytes (extensions section 10): one parse gives
// the errors, warnings and feature count. A large model took seconds on the serving thread at
// each staging and again at the upload. It reads no file and opens no database.
import { parentPort } from 'node:worker_threads';
import { checkModelBytes } from '../model-check.ts';
import type { CheckJob, CheckReply } from './check-in-worker.ts';

parentPort!.on('message', (job: CheckJob) => {
  parentPort!.postMessage({ id: job.id, kind: 'done', check: checkModelBytes(job.bytes) } satisfies CheckReply);
});
