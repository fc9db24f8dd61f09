// The edit class of two versions of a model (extensions section 2, "Model changes between
// versions"), decided by the engine off the request path: one worker thread of its own (the
// queued analyses keep theirs), a time budget per pair and a hard kill beyond it. Results are kept
// by the two texts' hashes, so a page asks, waits a moment at most, and shows "being decided"
// when the answer is not there yet; it never waits for the whole budget and never gets a guess.
import { createHash } from 'node:crypto';
import { WorkerSlot } from './analysis.pool.ts';
import type { ClassifyReply } from './analysis.protocol.ts';

export type EditClass = ClassifyReply['editKind'];

/** Room for parsing and the worker's start on top of the engine's own deadline. */
const KILL_MARGIN_MS = 5_000;
/** Decided pairs kept in memory (a pair is two model texts; the oldest go first). */
const KEPT_RESULTS = 2_000;

export interface ModelText {
  name: string;
  text: string;
}

export function createEditClassifier(budgetMs: number) {
  const slot = new WorkerSlot();
  let ids = 0;
  /** By pair: the decided class, or the promise of the run under way. */
  const results = new Map<string, EditClass | Promise<EditClass>>();

  const digest = (text: string) => createHash('sha256').update(text).digest('hex');

  /** One pair at a time: the slot queues them, and each run's kill timer starts with the run. */
  async function run(before: ModelText, after: ModelText): Promise<EditClass> {
    const reply = await slot.run({
      kind: 'classify', id: ++ids, before: { fileName: before.name, text: before.text }, after: { fileName: after.name, text: after.text }, timeoutMs: budgetMs,
    }, budgetMs + KILL_MARGIN_MS).catch(() => undefined);
    return reply?.kind === 'classified' ? reply.editKind : 'unknown';
  }

  function remember(key: string, value: EditClass | Promise<EditClass>): void {
    results.delete(key);
    results.set(key, value);
    if (results.size > KEPT_RESULTS) results.delete(results.keys().next().value!);
  }

  return {
    /**
     * The edit class, started in the worker when nobody asked for this pair yet; waits at most
     * `waitMs` for it and answers `pending` when it is still being decided. `unknown`: the pair's
     * budget ran out (or the worker was stopped).
     */
    async classify(before: ModelText, after: ModelText, waitMs: number): Promise<EditClass | 'pending'> {
      const key = `${digest(before.text)}:${digest(after.text)}`;
      let known = results.get(key);
      if (known === undefined) {
        const running = run(before, after).then((kind) => {
          remember(key, kind);
          return kind;
        });
        remember(key, running);
        known = running;
      }
      if (typeof known === 'string') return known;
      if (waitMs <= 0) return 'pending';
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'pending'>((resolve) => { timer = setTimeout(() => resolve('pending'), waitMs); });
      try {
        return await Promise.race([known, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    stop(): void {
      slot.terminate('The server stopped.');
    },
  };
}
