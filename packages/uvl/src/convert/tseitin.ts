// Boolean constraints as clauses, shared by the DIMACS export and the analysis engine:
// conjunctions split, disjunctions of literals kept as one clause, and any other subformula
// named by a Tseitin variable. The export defines each variable only for the polarity it is
// used in (flamapy's size); the analysis asks for both directions, so that every auxiliary
// variable is determined by the features and counting all variables counts configurations.

import type { BoolExpr } from './common.ts';

const POS = 1;
const NEG = 2;
const BOTH = 3;

export interface ConstraintEncoder {
  /** Adds the clauses of a constraint (through addClause; definitions through addDefinition). */
  clausify(e: BoolExpr): void;
}

export function constraintEncoder(
  fresh: () => number,
  addClause: (clause: number[]) => void,
  addDefinition: (clause: number[]) => void,
  options: { fullDefinitions?: boolean } = {},
): ConstraintEncoder {
  const full = options.fullDefinitions ?? false;
  const add = addDefinition;
  /** A literal equivalent to e where the polarity `pol` needs it (both ways when full). */
  const encode = (e: BoolExpr, wanted: number): number => {
    const pol = full ? BOTH : wanted;
    switch (e.kind) {
      case 'var':
        return e.index + 1;
      case 'not':
        return -encode(e.operand, pol === POS ? NEG : pol === NEG ? POS : BOTH);
      case 'and':
      case 'or': {
        const lits = e.operands.map((o) => encode(o, pol));
        const t = fresh();
        if (e.kind === 'and') {
          if (pol & POS) for (const l of lits) add([-t, l]);
          if (pol & NEG) add([t, ...lits.map((l) => -l)]);
        } else {
          if (pol & POS) add([-t, ...lits]);
          if (pol & NEG) for (const l of lits) add([t, -l]);
        }
        return t;
      }
      case 'implies': {
        const a = encode(e.left, pol === POS ? NEG : pol === NEG ? POS : BOTH);
        const b = encode(e.right, pol);
        const t = fresh();
        if (pol & POS) add([-t, -a, b]);
        if (pol & NEG) {
          add([t, a]);
          add([t, -b]);
        }
        return t;
      }
      case 'equiv': {
        const a = encode(e.left, BOTH);
        const b = encode(e.right, BOTH);
        const t = fresh();
        if (pol & POS) {
          add([-t, -a, b]);
          add([-t, a, -b]);
        }
        if (pol & NEG) {
          add([t, a, b]);
          add([t, -a, -b]);
        }
        return t;
      }
    }
  };
  /** The literals of a constraint that is a disjunction, encoding only the parts that are not. */
  const disjuncts = (e: BoolExpr, positive: boolean, out: number[]): void => {
    if (e.kind === 'var') out.push(positive ? e.index + 1 : -(e.index + 1));
    else if (e.kind === 'not') disjuncts(e.operand, !positive, out);
    else if (e.kind === 'or' && positive) for (const o of e.operands) disjuncts(o, true, out);
    else if (e.kind === 'and' && !positive) for (const o of e.operands) disjuncts(o, false, out);
    else if (e.kind === 'implies' && positive) {
      disjuncts(e.left, false, out);
      disjuncts(e.right, true, out);
    } else {
      const l = encode(e, positive ? POS : NEG);
      out.push(positive ? l : -l);
    }
  };
  const clausify = (e: BoolExpr, positive: boolean): void => {
    if ((e.kind === 'and' && positive) || (e.kind === 'or' && !positive)) {
      for (const o of e.operands) clausify(o, positive);
    } else if (e.kind === 'not') {
      clausify(e.operand, !positive);
    } else if (e.kind === 'implies' && !positive) {
      clausify(e.left, true);
      clausify(e.right, false);
    } else if (e.kind === 'equiv') {
      const a = encode(e.left, BOTH);
      const b = encode(e.right, BOTH);
      if (positive) {
        addClause([-a, b]);
        addClause([a, -b]);
      } else {
        addClause([a, b]);
        addClause([-a, -b]);
      }
    } else {
      const clause: number[] = [];
      disjuncts(e, positive, clause);
      addClause(clause);
    }
  };
  return { clausify: (e) => clausify(e, true) };
}
