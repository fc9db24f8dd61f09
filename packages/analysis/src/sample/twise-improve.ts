// The pairwise sample's improvement after the greedy: configurations are removed one by one, each
// only when every pair it alone covers can be moved into another configuration (its host). A
// pair moves by re-solving the host under the pair's two literals, with the host's own values as
// the solver's phases so that the new model stays close to it; the move is kept only when every
// pair the host loses is covered by another configuration too. With `rounds` above 1, a move
// that would lose pairs only the host covers is not given up at once: the host's literals of
// those pairs join the assumptions and the host is solved again, so that the solver looks for
// another way to take the pair. Nothing is ever uncovered: a removal that fails puts the
// configuration back, and the moves made for it stay (each keeps coverage whole).
//
// Victims are taken by fewest pairs alone (the cheapest to remove), a victim's pairs in the
// order found (pairs of one literal in a row, so that a move often takes the next ones too; by
// fewest hosts first, automotive01's first pass kept 852 configurations instead of 839), hosts
// at random (by fewest pairs lost when flipping the missing literal: 839 too, and slower).
//
// Coverage is a count per pair of literals (pair-counts.ts): models past `MAX_LITERALS` literals
// are not improved.

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { PairCounts } from './pair-counts.ts';
import { litDimacs, litIndex } from './tuple-bits.ts';

/** 2 * 11 585 literals: 256 MB of counts. */
export const MAX_LITERALS = 23_170;
/** A configuration alone covering more pairs than this is not tried: moving them costs too many calls. */
const MAX_UNIQUE = 400;
/** Hosts tried per pair before the removal is given up. */
const HOSTS_PER_PAIR = 12;
/** The counts are 16 bits. */
const MAX_MODELS = 65_535;

export interface ImproveInput {
  solver: SatSolver;
  n: number;
  models: Int8Array[];
  deadline: Deadline;
  random: () => number;
  /** Hosts tried per pair (default HOSTS_PER_PAIR). */
  hostsPerPair?: number;
  /** Solves of one host for one pair, each keeping more of the host's pairs (default 1: the host's phases only). */
  rounds?: number;
  /**
   * A table of counts over the same features to use (cleared first): passes that each
   * allocated their own held two at once until the collector freed one (linux: 334 MB each).
   */
  counts?: PairCounts;
}

/** The improved sample (fewer or as many configurations, covering every pair the input covers). */
export function improvePairwise(input: ImproveInput): Int8Array[] {
  const { n } = input;
  if (2 * n > MAX_LITERALS || input.models.length < 2 || input.models.length > MAX_MODELS) return input.models;
  const sample = new Sample(input);
  const order = sample.models.map((_, k) => ({ k, unique: sample.counts.unique(sample.lits[k]!, MAX_UNIQUE + 1).length }));
  order.sort((x, y) => x.unique - y.unique || x.k - y.k);
  for (const { k, unique } of order) {
    if (input.deadline.expired() || unique > MAX_UNIQUE) break;
    sample.tryRemove(k);
  }
  return sample.models.filter((_, k) => sample.alive[k]);
}

class Sample {
  readonly models: Int8Array[];
  readonly lits: Int32Array[];
  readonly alive: Uint8Array;
  readonly counts: PairCounts;

  constructor(private readonly input: ImproveInput) {
    this.models = input.models.map((m) => m.slice());
    this.lits = this.models.map((m) => literalsOf(m, input.n));
    this.alive = new Uint8Array(this.models.length).fill(1);
    this.counts = input.counts ?? new PairCounts(input.n);
    this.counts.clear();
    for (const on of this.lits) this.counts.add(on, 1);
  }

  /** Removes configuration k when its pairs alone all move elsewhere; true when it was removed. */
  tryRemove(k: number): boolean {
    const pairs = this.counts.unique(this.lits[k]!, MAX_UNIQUE + 1);
    if (pairs.length > MAX_UNIQUE) return false;
    this.counts.add(this.lits[k]!, -1);
    this.alive[k] = 0;
    for (const [a, b] of pairs) {
      if (this.counts.of(a, b) > 0) continue; // an earlier move covered it
      if (this.input.deadline.expired() || !this.place(a, b)) {
        this.alive[k] = 1;
        this.counts.add(this.lits[k]!, 1);
        return false;
      }
    }
    return true;
  }

  /** Living configurations with exactly one literal of the pair. */
  private hostsOf(a: number, b: number): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.models.length; k++) {
      if (!this.alive[k]) continue;
      const on = this.lits[k]!;
      if ((on[a >> 1] === a) !== (on[b >> 1] === b)) out.push(k);
    }
    return out;
  }

  /** Pair (a, b) into some living configuration. */
  private place(a: number, b: number): boolean {
    const hosts = this.hostsOf(a, b);
    shuffle(hosts, this.input.random);
    for (const k of hosts.slice(0, this.input.hostsPerPair ?? HOSTS_PER_PAIR)) {
      const moved = this.moveInto(k, a, b);
      if (moved !== false) return moved === true;
    }
    return false;
  }

  /** Re-solves host k with the pair; true when done, false when this host cannot, 'timeout'. */
  private moveInto(k: number, a: number, b: number): boolean | 'timeout' {
    const { solver, n, deadline } = this.input;
    const host = this.models[k]!;
    const on = this.lits[k]!;
    const assumptions = [litDimacs(a), litDimacs(b)];
    for (let round = 0; round < (this.input.rounds ?? 1); round++) {
      for (let v = 1; v <= n; v++) solver.setPhase(v, host[v] === 1);
      const status = solver.solve(assumptions, deadline);
      if (status === 'timeout') return 'timeout';
      if (status === 'unsat') return false;
      const next = solver.model();
      const changed: number[] = [];
      for (let v = 1; v <= n; v++) if (next[v] !== host[v]) changed.push(v);
      const keep = this.counts.lostBy(on, changed);
      if (keep.length === 0) {
        this.counts.change(on, changed, -1);
        this.models[k] = next;
        this.lits[k] = literalsOf(next, n);
        this.counts.change(this.lits[k]!, changed, 1);
        return true;
      }
      // The pair's own feature loses pairs only the host covers: no other way can keep them.
      if (keep.includes(a ^ 1) || keep.includes(b ^ 1)) return false;
      for (const x of keep) {
        const d = litDimacs(x);
        if (!assumptions.includes(d)) assumptions.push(d);
      }
    }
    return false;
  }
}

function literalsOf(model: Int8Array, n: number): Int32Array {
  const on = new Int32Array(n);
  for (let v = 1; v <= n; v++) on[v - 1] = litIndex(model[v] === 1 ? v : -v);
  return on;
}

function shuffle(list: number[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
}
