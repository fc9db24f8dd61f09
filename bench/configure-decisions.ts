// The decisions the configure benches replay (bench:configure-http on the hub, bench:configure-steps
// in process), so that their figures are of the same steps: a linear congruential generator with
// seed 42 picks, at each step, one of the features the previous step left open and whether it is
// selected or deselected.

export interface DecisionSequence {
  selected: string[];
  deselected: string[];
  /** Adds one decision among the open features of the last answer; false when none is open. */
  next(states: Record<string, string>): boolean;
}

export function decisionSequence(): DecisionSequence {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const sequence: DecisionSequence = {
    selected: [],
    deselected: [],
    next(states) {
      const open = Object.keys(states).filter((n) => states[n] === 'open');
      if (open.length === 0) return false;
      const name = open[Math.floor(random() * open.length)]!;
      (random() < 0.5 ? sequence.selected : sequence.deselected).push(name);
      return true;
    },
  };
  return sequence;
}
