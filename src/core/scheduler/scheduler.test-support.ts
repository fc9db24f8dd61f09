// The worker of scheduler.test.ts: a job counts its start in shared memory, then waits until the
// test releases it (its gate), so the test sees which jobs started without measuring any time.
import { parentPort } from 'node:worker_threads';

export interface GateJob {
  id: number;
  /** [0]: jobs started so far (all workers); [1 + gate]: set to 1 to release that gate. */
  shared: Int32Array;
  gate: number;
}
export interface GateReply {
  kind: 'done';
  id: number;
  /** This job's place in the order of starts (1 first). */
  order: number;
}

parentPort!.on('message', (job: GateJob) => {
  const order = Atomics.add(job.shared, 0, 1) + 1;
  while (Atomics.load(job.shared, 1 + job.gate) === 0) Atomics.wait(job.shared, 1 + job.gate, 0, 1000);
  parentPort!.postMessage({ kind: 'done', id: job.id, order } satisfies GateReply);
});
