// The worker of worker-slot.test.ts: each job names what the worker does with it, so the test
// drives every way a job can end with a real thread.
import { parentPort, threadId } from 'node:worker_threads';

export interface TestJob {
  id: number;
  do: 'reply' | 'progress' | 'throw' | 'exit' | 'hang' | 'wait' | 'oom';
  timeoutMs: number;
}
export interface TestReply {
  kind: 'done';
  id: number;
  /** Which worker answered: a new thread has another id. */
  thread: number;
}
export interface TestProgress {
  kind: 'progress';
  id: number;
  step: number;
}

const port = parentPort!;

port.on('message', (job: TestJob) => {
  const reply: TestReply = { kind: 'done', id: job.id, thread: threadId };
  switch (job.do) {
    case 'reply': port.postMessage(reply); break;
    case 'progress':
      // Another job's message first: the slot must not take it for this job's reply.
      port.postMessage({ kind: 'done', id: job.id + 1000, thread: threadId } satisfies TestReply);
      for (let step = 1; step <= 3; step++) port.postMessage({ kind: 'progress', id: job.id, step } satisfies TestProgress);
      port.postMessage(reply);
      break;
    case 'throw': throw new Error('broken on purpose');
    case 'exit': process.exit(3);
    // Never checks a deadline: only the hard limit ends it.
    case 'hang': for (;;);
    case 'wait': setTimeout(() => port.postMessage(reply), 60_000); break;
    case 'oom': {
      const kept: number[][] = [];
      for (;;) kept.push(new Array(100_000).fill(kept.length));
    }
  }
});
