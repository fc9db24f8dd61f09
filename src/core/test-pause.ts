// A test-only hook for the crash tests (test/crash/): `HUB_TEST_PAUSE_AT=<step>` makes the code
// at that named step write the step into the file `HUB_TEST_PAUSE_MARKER` and wait for ever,
// so that the test knows where the process is when it kills it (SIGKILL). Inert unless both
// variables are set, and never in production (FLASK_ENV=production), whatever they say.
import { renameSync, writeFileSync } from 'node:fs';

const pauseAt = process.env.FLASK_ENV === 'production' ? undefined : process.env.HUB_TEST_PAUSE_AT;
const marker = process.env.HUB_TEST_PAUSE_MARKER;

/** The named steps, so that a step's name in a test and in the code cannot drift apart. */
export type PauseStep =
  | 'upload:after-files' | 'upload:after-commit'
  | 'deposit:after-publish' | 'deposit:after-doi'
  | 'edit:after-deposit' | 'edit:before-commit'
  | 'analysis:claimed';

export function pauseHere(step: PauseStep): Promise<void> {
  if (pauseAt === undefined || marker === undefined || pauseAt !== step) return Promise.resolve();
  // Written beside it, then renamed: a test polling for the file never reads it empty.
  writeFileSync(`${marker}.tmp`, step);
  renameSync(`${marker}.tmp`, marker);
  // Never settles: the process is killed here.
  return new Promise<void>(() => {});
}
