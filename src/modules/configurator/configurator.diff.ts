// A configure step's answer as what changed (issue 37, item 1): automotive2_4's full answer names
// all 18,616 features' states (633 KB) though a decision changes a few dozen. A request that says
// which decisions its state comes from (`since`) gets `changed`, the features whose state differs
// from that state's, instead of `features`; the page applies it to the states it holds. Without
// `since` the answer is the documented full one (extensions section 6).
//
// Runs in the worker: it keeps the states of the last few steps per model, so that the state a
// page holds is usually there; when it is not (another seat, another instance), the worker
// propagates `since` once more, so the answer never depends on where the page's last step ran.

/** A partial configuration, as the configure request gives it. */
export interface DecisionSet { selected: readonly string[]; deselected: readonly string[] }

/** Every feature's state, by name. */
export type States = Record<string, string>;

/** The same decisions in any order are one key. */
export function decisionsKey(decisions: DecisionSet): string {
  return JSON.stringify([[...decisions.selected].sort(), [...decisions.deselected].sort()]);
}

/** The features whose state in `after` differs from `before` (a name missing from `before` counts as changed). */
export function changedStates(before: States, after: States): States {
  const changed: States = {};
  for (const name in after) if (before[name] !== after[name]) changed[name] = after[name]!;
  return changed;
}

/** `before` with the changes applied: what the page does with `changed` (tests check the two agree). */
export function applyChanges(before: States, changed: States): States {
  return { ...before, ...changed };
}

/** Steps' states kept per model: a page's next step names the state of its last one. */
const KEPT_STEPS = 8;

/** The states of the latest steps on one model, least recently used first. */
export class RecentStates {
  private readonly steps = new Map<string, States>();

  get(decisions: DecisionSet): States | undefined {
    const key = decisionsKey(decisions);
    const hit = this.steps.get(key);
    if (hit) {
      this.steps.delete(key);
      this.steps.set(key, hit);
    }
    return hit;
  }

  remember(decisions: DecisionSet, states: States): void {
    const key = decisionsKey(decisions);
    this.steps.delete(key);
    this.steps.set(key, states);
    while (this.steps.size > KEPT_STEPS) this.steps.delete(this.steps.keys().next().value!);
  }
}
