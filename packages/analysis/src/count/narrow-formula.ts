// The shapes the tree-decomposition counter (tree-decomposition.ts) takes and gives: the narrow
// formula it counts, an elimination kept for later queries, and the tables of one run.

export interface NarrowFormula {
  /** Variables are 0 .. vars-1; literal 2v is v, 2v + 1 is not v. */
  vars: number;
  /** Clause c is lits[start[c] .. start[c + 1]), no variable twice. */
  clauseStart: Int32Array<ArrayBuffer>;
  lits: Int32Array<ArrayBuffer>;
  clauses: number;
}

/** A formula's elimination, kept (compile/narrow-leaf.ts) so that each query does not find it again. */
export interface EliminationPlan {
  /** A clause without literals: no model. */
  empty: boolean;
  scopeStart: Int32Array;
  scopeVars: Int32Array;
  stepIndex: Int32Array;
  bucketHead: Int32Array;
  clauseNext: Int32Array;
}

/**
 * The tables of one run of the elimination, for queries beyond the count (compile/narrow-leaf.ts).
 * Step s eliminates scopeVars[scopeStart[s]] (bit 0 of its entries); the rest of its bag are
 * bits 1.. in order. Its outgoing table (over the bag without bit 0, bit j for
 * scopeVars[scopeStart[s] + 1 + j]) starts at pool[tableAt[s]], `channels` numbers per entry:
 * a double, then residues modulo primes[0..]. A step whose bag is its variable alone is a root
 * of the elimination forest: its table is one number, a factor of the total.
 */
export interface BucketTables {
  vars: number;
  formula: NarrowFormula;
  channels: number;
  primes: number[];
  scopeStart: Int32Array;
  scopeVars: Int32Array;
  tableAt: Int32Array;
  /** The steps whose tables step s multiplies: inList[inStart[s] .. inStart[s + 1]). */
  inStart: Int32Array;
  inList: Int32Array;
  /** The clauses of step s's bucket: bucketClauses[clauseAt[s] .. clauseAt[s + 1]). */
  clauseAt: Int32Array;
  bucketClauses: Int32Array;
  pool: Float64Array;
  /** The number of models agreeing with the fixed values. */
  total: bigint;
  /** A clause without literals: no model, no tables. */
  empty: boolean;
}
