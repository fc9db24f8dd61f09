// Test support: configurations counted by the analysis engine, for a UVL model and for a
// format's own CNF (direct-cnf.support.ts).
import { countCnf, countConfigurations, Deadline, encodeModel } from '../../../analysis/src/index.ts';
import type { UvlModel } from '../ast.ts';
import type { DirectCnf } from './direct-cnf.support.ts';

export function countModelConfigurations(model: UvlModel): bigint | null {
  return countConfigurations(model, encodeModel(model), Deadline.none());
}

export function countDirect(cnf: DirectCnf): bigint | null {
  return countCnf(cnf.numVars, cnf.clauses);
}
