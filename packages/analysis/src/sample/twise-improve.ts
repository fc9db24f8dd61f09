// The pairwise sample's improvement after the greedy, within a time budget: configurations are
// removed one by one, each only when every pair it alone covers can be moved into another
// configuration. A pair moves into a host by re-solving the host under the pair's two literals
// with the host's own values as the solver's phases, so the new model stays close to the host;
// the move is kept only when every pair the host loses is covered by some other configuration.
// Nothing is ever uncovered: a removal that fails puts the configuration back, and the moves
// made for it stay (each kept coverage whole).
//
// Coverage is a count per pair of literals (L * L 16-bit counts): models past `MAX_LITERALS`
// literals are not improved.

import type { Deadline } from '../deadline.ts';
import type { SatSolver } from '../sat/solver.ts';
import { litDimacs, litIndex } from './tuple-bits.ts';

/** 2 * 11 585 literals: 256 MB of counts. */
export const MAX_LITERALS = 23_170;
/** A configuration alone covering more pairs than this is not tried: moving them costs too many calls. */
const MAX_UNIQUE = 400;
/** Hosts tried per pair before the removal is given up. */
const HOSTS_PER_PAIR = 12;

export interface ImproveInput {
  solver: SatSolver;
  n: number;
  models: Int8Array[];
  deadline: Deadline;
  random: () => number;
}

/** The improved sample (fewer or as many configurations, covering every pair the input covers). */
export function improvePairwise(input: ImproveInput): Int8Array[] {
  const { solver, n, deadline } = input;
  const L = 2 * n;
  if (L > MAX_LITERALS || input.models.length < 2) return input.models;
  const models: Int8Array[] = input.models.map((m) => m.slice());
  const alive = new Uint8Array(models.length).fill(1);
  const count = new Uint16Array(L * L);
  const lits = models.map((m) => literalsOf(m, n));
  for (const on of lits) addPairs(count, L, on, 1);

  // Fewest pairs alone first: they are the cheapest to remove.
  const order = models.map((_, k) => ({ k, unique: uniquePairs(count, L, lits[k]!, MAX_UNIQUE + 1).length }));
  order.sort((x, y) => x.unique - y.unique || x.k - y.k);

  for (const { k: victim, unique } of order) {
    if (deadline.expired()) break;
    if (unique > MAX_UNIQUE) break;
    const pairs = uniquePairs(count, L, lits[victim]!, MAX_UNIQUE + 1);
    if (pairs.length > MAX_UNIQUE) continue;
    addPairs(count, L, lits[victim]!, -1);
    alive[victim] = 0;
    let moved = true;
    for (const [a, b] of pairs) {
      if (count[a * L + b]! > 0) continue; // an earlier move covered it
      if (deadline.expired() || !moveInto(a, b)) {
        moved = false;
        break;
      }
    }
    if (!moved) {
      alive[victim] = 1;
      addPairs(count, L, lits[victim]!, 1);
    }
  }
  return models.filter((_, k) => alive[k]);

  // Pair (a, b) into some living configuration that has one of its literals already.
  function moveInto(a: number, b: number): boolean {
    const hosts: number[] = [];
    for (let k = 0; k < models.length; k++) {
      if (!alive[k]) continue;
      const hasA = models[k]![(a >> 1) + 1] === (a & 1 ? -1 : 1);
      const hasB = models[k]![(b >> 1) + 1] === (b & 1 ? -1 : 1);
      if (hasA !== hasB) hosts.push(k);
    }
    shuffle(hosts, input.random);
    for (const k of hosts.slice(0, HOSTS_PER_PAIR)) {
      const host = models[k]!;
      for (let v = 1; v <= n; v++) solver.setPhase(v, host[v] === 1);
      const status = solver.solve([litDimacs(a), litDimacs(b)], deadline);
      if (status !== 'sat') return false; // timeout; unsat cannot be: the victim had the pair
      const next = solver.model();
      const changed: number[] = [];
      for (let v = 1; v <= n; v++) if (next[v] !== host[v]) changed.push(v);
      if (!losesOnlyShared(count, L, lits[k]!, changed)) continue;
      changePairs(count, L, lits[k]!, changed, -1);
      models[k] = next;
      lits[k] = literalsOf(next, n);
      changePairs(count, L, lits[k]!, changed, 1);
      return true;
    }
    return false;
  }
}

function literalsOf(model: Int8Array, n: number): Int32Array {
  const on = new Int32Array(n);
  for (let v = 1; v <= n; v++) on[v - 1] = litIndex(model[v] === 1 ? v : -v);
  return on;
}

/** Counts every pair of the configuration (`on`: its literal per feature, increasing) up or down. */
function addPairs(count: Uint16Array, L: number, on: Int32Array, by: 1 | -1): void {
  for (let i = 0; i < on.length; i++) {
    const base = on[i]! * L;
    for (let j = i + 1; j < on.length; j++) count[base + on[j]!]! += by;
  }
}

/** The pairs only this configuration covers (up to `limit`), as [smaller, larger] literals. */
function uniquePairs(count: Uint16Array, L: number, on: Int32Array, limit: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < on.length; i++) {
    const base = on[i]! * L;
    for (let j = i + 1; j < on.length; j++) {
      if (count[base + on[j]!] === 1) {
        out.push([on[i]!, on[j]!]);
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** True when every pair the configuration loses by flipping the `changed` features is covered by another. */
function losesOnlyShared(count: Uint16Array, L: number, on: Int32Array, changed: number[]): boolean {
  for (const v of changed) {
    const a = on[v - 1]!;
    for (let j = 0; j < on.length; j++) {
      if (j === v - 1) continue;
      const b = on[j]!;
      if (count[a < b ? a * L + b : b * L + a]! < 2) return false;
    }
  }
  return true;
}

/** Counts, up or down, the configuration's pairs that have at least one changed feature. */
function changePairs(count: Uint16Array, L: number, on: Int32Array, changed: number[], by: 1 | -1): void {
  const isChanged = new Set(changed);
  for (const v of changed) {
    const a = on[v - 1]!;
    for (let j = 0; j < on.length; j++) {
      if (j === v - 1 || (isChanged.has(j + 1) && j + 1 < v)) continue; // pairs of two changed: once
      const b = on[j]!;
      count[a < b ? a * L + b : b * L + a]! += by;
    }
  }
}

function shuffle(list: number[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
}
