// The counter's tuning: when its heuristics (definitions left out, separators, lookahead, dynamic
// programming on narrow components) are used, with the measurements that chose each threshold.

export const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * The decision is the variable of the component with the most occurrences in its active clauses
 * plus RANK_WEIGHT * (its rank / numVars), or by rank alone (RANK_ONLY) when the elimination order
 * is narrow (width at most WIDE) or was cut short by its budget. A narrow order is a good tree
 * decomposition to follow (the CDL models: width about 30, counted in about 1 s by rank, time
 * out by occurrences); a wide one is not (fm3.uvl: width 123, occurrences plus rank count it in
 * about 20 s, rank alone takes minutes; 10 beats 3 and 30 there).
 */
export const WIDE = 64;
export const RANK_WEIGHT = 10;
export const RANK_ONLY = 1e9;
/**
 * On a wide order, the decisions of a component of PLAN_MIN_VARS..PLAN_MAX_VARS variables that has
 * no separator left to decide follow a new balanced separator of it, when one has at most
 * MAX_SEPARATOR variables (planSeparator); otherwise one of at least LOOKAHEAD_MIN_VARS takes the
 * best of LOOKAHEAD_CANDIDATES trial decisions (lookahead). Measured on fm3.uvl (decisions; the
 * occurrence heuristic alone makes 775 000): separators on every component from 8 variables 330 000,
 * plus the lookahead 271 000; separators from 80 variables make as few decisions with a tenth
 * of the planning (120 variables: the same again, 124 plans). Separators of at most 12 or 28
 * variables, or the smallest of several randomized eliminations, do worse than 20; more
 * candidates (16) do worse than 8. Above PLAN_MAX_VARS neither is tried: the planning is quadratic
 * in the component's size and a lookahead finds its components 16 times.
 */
export const PLAN_MIN_VARS = 80;
export const PLAN_MAX_VARS = 2000;
export const MAX_SEPARATOR = 20;
export const LOOKAHEAD_MIN_VARS = 100;
export const LOOKAHEAD_CANDIDATES = 8;

/**
 * A component of NARROW_MIN_VARS..NARROW_MAX_VARS variables whose residual formula has a
 * min-degree elimination with bags of at most NARROW_MAX_WIDTH + 1 variables and at most
 * NARROW_MAX_COST table entries in all is counted by dynamic programming over that
 * decomposition (tree-decomposition.ts) instead of a search.
 */
export const NARROW_MIN_VARS = 16;
/**
 * The compiler keeps narrow components as TABLE nodes from this size (compile/narrow-leaf.ts);
 * smaller ones it searches. Measured: fm3.uvl's are about 200 variables (907 tables from 16
 * variables, 889 from 100, the same compile time); the Financial_Services_01 models get 155 of
 * 32 variables on average from 16, whose tables made every feature's commonality 10 ms -> 290 ms
 * and 1 000 samples 32 -> 53 ms against their searched nodes, for no faster a compile.
 */
export const TABLE_MIN_VARS = 100;
export const NARROW_MAX_VARS = 1000;
export const NARROW_MAX_WIDTH = 10;
export const NARROW_MAX_COST = 1 << 16;

export interface CountOptions {
  /** When unused definitions are left out: on a wide elimination order only (default), or always (tests). */
  dropUnusedDefinitions?: 'wide' | 'always';
  /**
   * When decisions follow separators and lookahead: on a wide elimination order only (default),
   * or always, from components of a few variables and with separators of at most 2 so that the
   * lookahead is used too (tests: the heuristics choose only the order, never the count).
   */
  separators?: 'wide' | 'always';
  /**
   * When narrow components are counted by dynamic programming: on a wide elimination order only
   * (default), or always, from components of two variables (tests).
   */
  narrowComponents?: 'wide' | 'always';
}
