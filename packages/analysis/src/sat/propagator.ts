// The solver's hook for constraints that are not clauses (sat/solver.ts setPropagator): XOR rows
// propagated by Gauss-Jordan elimination (sat/xor-gauss.ts).

/**
 * What a propagator of constraints that are not clauses (XOR rows: sat/xor-gauss.ts) sees of the
 * solver. Literals are internal (2v for v, 2v+1 for -v).
 */
export interface PropagatorHost {
  readonly trailSize: number;
  trailLit(i: number): number;
  /** 1 true, -1 false, 0 unassigned. */
  value(lit: number): number;
  /**
   * Sets `lit` true at the current level; `reason` holds it and the negation of each other
   * literal that implies it (all false now), or makes that clause when conflict analysis first
   * needs it (lazily: most reasons are never read).
   */
  imply(lit: number, reason: Int32Array | (() => Int32Array)): void;
}

/** Told every assignment in trail order (from where it stopped), and when the trail is cut back. */
export interface ExtraPropagator {
  /** Processes the trail to its end; returns a clause all of whose literals are false (a conflict), or null. */
  propagate(host: PropagatorHost): Int32Array | null;
  /** The trail keeps its first `size` entries only (called before they are unassigned). */
  backtrack(size: number, host: PropagatorHost): void;
}
