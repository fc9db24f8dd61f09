// The SAT solver's learning (solver.ts): first-UIP conflict analysis with local minimisation, the
// final analysis that gives failed assumptions as a core, and the learned-clause database with its
// reduction by LBD and activity.

import { Clause, litsOf, toDimacs, TRUE } from './solver-clause.ts';
import { PropagationState } from './solver-propagation.ts';

export class ConflictLearning extends PropagationState {
  protected learnts: Clause[] = [];
  protected clauseCount = 0;
  protected clauseInc = 1;
  protected maxLearnts = 0;

  /** First-UIP conflict analysis: the learned clause (asserting literal first) and the level to go back to. */
  protected analyze(confl: Clause): { learnt: number[]; backtrack: number } {
    const seen = this.seen;
    const out: number[] = [0];
    let pathCount = 0;
    let p = -1;
    let index = this.trailSize - 1;
    let c: Clause | null = confl;
    const current = this.decisionLevel;
    do {
      if (c!.learnt) this.bumpClause(c!);
      const lits = litsOf(c!);
      for (let k = 0; k < lits.length; k++) {
        const q = lits[k]!;
        if (p !== -1 && q === p) continue;
        const v = q >> 1;
        if (seen[v] || this.level[v] === 0) continue;
        seen[v] = 1;
        this.bumpVar(v);
        if (this.level[v]! >= current) pathCount++;
        else out.push(q);
      }
      while (!seen[this.trail[index]! >> 1]) index--;
      p = this.trail[index]!;
      index--;
      c = this.reason[p >> 1]!;
      seen[p >> 1] = 0;
      pathCount--;
    } while (pathCount > 0);
    out[0] = p ^ 1;

    // Local minimisation: a literal whose reason's other literals are all in the clause is redundant.
    // Every literal marked above is unmarked afterwards, the dropped ones included.
    const marked = out.slice(1);
    let n = 1;
    for (let k = 1; k < out.length; k++) {
      const q = out[k]!;
      const r = this.reason[q >> 1];
      let redundant = r !== null;
      if (r) {
        const rl = litsOf(r);
        for (let m = 0; m < rl.length; m++) {
          const x = rl[m]!;
          const xv = x >> 1;
          if (xv === q >> 1) continue;
          if (!seen[xv] && this.level[xv]! > 0) {
            redundant = false;
            break;
          }
        }
      }
      if (!redundant) out[n++] = q;
    }
    out.length = n;
    for (const q of marked) seen[q >> 1] = 0;

    let backtrack = 0;
    if (n > 1) {
      let maxI = 1;
      for (let k = 2; k < n; k++) if (this.level[out[k]! >> 1]! > this.level[out[maxI]! >> 1]!) maxI = k;
      const t = out[1]!;
      out[1] = out[maxI]!;
      out[maxI] = t;
      backtrack = this.level[out[1]! >> 1]!;
    }
    return { learnt: out, backtrack };
  }

  /** The assumptions (as given, DIMACS) responsible for the assumption `p` being false. */
  protected analyzeFinal(p: number): number[] {
    const core: number[] = [toDimacs(p ^ 1)];
    if (this.decisionLevel === 0) return core;
    const seen = this.seen;
    seen[p >> 1] = 1;
    for (let i = this.trailSize - 1; i >= this.trailLim[0]!; i--) {
      const x = this.trail[i]!;
      const v = x >> 1;
      if (!seen[v]) continue;
      const r = this.reason[v];
      if (r === null) {
        if (this.level[v]! > 0) core.push(toDimacs(x));
      } else {
        const rl = litsOf(r);
        for (let k = 0; k < rl.length; k++) {
          const w = rl[k]! >> 1;
          if (w !== v && this.level[w]! > 0) seen[w] = 1;
        }
      }
      seen[v] = 0;
    }
    seen[p >> 1] = 0;
    return core;
  }

  protected lbd(lits: number[]): number {
    const levels = new Set<number>();
    for (const l of lits) levels.add(this.level[l >> 1]!);
    return levels.size;
  }

  protected bumpClause(c: Clause): void {
    c.activity += this.clauseInc;
    if (c.activity > 1e20) {
      for (const l of this.learnts) l.activity *= 1e-20;
      this.clauseInc *= 1e-20;
    }
  }

  protected reduceLearnts(): void {
    const locked = (c: Clause) => {
      const l0 = c.lits[0]!;
      return this.reason[l0 >> 1] === c && this.litVal[l0] === TRUE;
    };
    const sorted = this.learnts.slice().sort((a, b) => (a.lbd !== b.lbd ? b.lbd - a.lbd : a.activity - b.activity));
    const limit = sorted.length >> 1;
    let removed = 0;
    for (const c of sorted) {
      if (removed >= limit) break;
      if (c.lbd <= 2 || locked(c)) continue;
      c.removed = true;
      removed++;
    }
    this.learnts = this.learnts.filter((c) => !c.removed);
  }
}
