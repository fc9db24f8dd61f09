// The pairwise improvement's schedule after the greedy: removal passes (twise-improve.ts) while
// they pay. The first pass takes the greedy's last configurations, which cover few pairs alone,
// with the cheap moves (the host's phases only, 12 hosts per pair); the later ones need the
// host solved again keeping its own pairs, and more hosts (automotive01, from 839
// configurations after the first pass: 813 after a second cheap pass, 780 after a second pass
// of 3 solves and 24 hosts). Every pass keeps the sample complete and never makes it larger, so
// the deadline may stop it anywhere; when the schedule stops on its own it has done the same
// steps whatever the machine's speed, and the sample depends on the seed only.
//
// (Taking out the tenth of the configurations that cover fewest pairs alone and covering their
// pairs again by the greedy gave no fewer configurations on automotive01, at 813 or at 802.)

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { PairCounts } from './pair-counts.ts';
import { improvePairwise, MAX_LITERALS } from './twise-improve.ts';

/**
 * Most passes: through the command line automotive01 went 844, 781, 761, 751, 742, 737 in 583 s
 * CPU (1 173 s wall at load 2.5-5; best known 727); linux-2.6.33.3 493, 487 (optimal 483).
 */
const PASSES = 6;
/** Hosts per pair and solves per host of the passes after the first. */
const LATE_HOSTS = 24;
const LATE_ROUNDS = 3;

export interface ImproveRunInput {
  solver: SatSolver;
  n: number;
  models: Int8Array[];
  deadline: Deadline;
  random: () => number;
  /** Called after each pass with the sample's size. */
  onSize?: (size: number) => void;
}

export function improveInPasses(input: ImproveRunInput): Int8Array[] {
  const { solver, n, deadline, random } = input;
  let models = input.models;
  const counts = 2 * n <= MAX_LITERALS && models.length >= 2 ? new PairCounts(n) : undefined;
  for (let pass = 0; pass < PASSES && !deadline.expired(); pass++) {
    const before = models.length;
    const late = pass > 0 ? { hostsPerPair: LATE_HOSTS, rounds: LATE_ROUNDS } : {};
    models = improvePairwise({ solver, n, models, deadline, random, counts, ...late });
    input.onSize?.(models.length);
    if (before - models.length < Math.max(1, before / 200)) break;
  }
  return models;
}
