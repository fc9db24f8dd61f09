// What the tests of the upload page's share of heavy jobs use (staging.page-share.test.ts and the
// browser's upload-turns.test.ts): a gate job kind that holds a worker seat until opened, models
// large enough for the check's large lane, and a poll that fails rather than hang.
import assert from 'node:assert/strict';
import type { WorkerKind } from '../../../core/scheduler/index.ts';
import type { GateJob, GateReply } from '../../../core/scheduler/scheduler.test-support.ts';

export const gateKind: WorkerKind<GateJob, GateReply> = {
  name: 'test-gate',
  options: {
    script: new URL('../../../core/scheduler/scheduler.test-support.ts', import.meta.url),
    crash: { error: (e) => e.message, exit: (c) => `exit ${c}`, overrun: () => 'overran' },
  },
};

/** A valid model of about 3,000 features (over 64 KB: the check's large lane), told apart by `n`. */
export function largeModel(n: number): string {
  const lines = ['features', `    Root${n}`, '        optional'];
  for (let i = 0; i < 3000; i++) lines.push(`            Feature_${n}_${i}`);
  return `${lines.join('\n')}\n`;
}

export const SMALL_MODEL = 'features\n    Printer\n        alternative\n            Laser\n            Inkjet\n        optional\n            Duplex\n';

/** Waits (in short polls) until `ready()`; fails after 60 s rather than hang. */
export async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
