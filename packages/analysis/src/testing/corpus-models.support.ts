// Test support: the valid corpus models small enough for the brute-force oracle, parsed with
// their imports, each with its oracle (models that imports make too large are passed over).

import { join } from 'node:path';
import { diskLoader, type Corpus } from '../../../uvl/src/corpus.support.ts';
import { parseUvl, type UvlModel } from '../../../uvl/src/index.ts';
import { bruteForceModel, TooManyFeatures, type BruteForceModel } from './brute-force.support.ts';

export interface SmallCorpusModel {
  path: string;
  text: string;
  model: UvlModel;
  truth: BruteForceModel;
}

export function* smallCorpusModels(corpus: Corpus, maxFeatures = 20): Generator<SmallCorpusModel> {
  for (const f of corpus.files) {
    if (!f.valid || f.features === undefined || f.features > maxFeatures) continue;
    const text = corpus.read(f.path);
    const { model, diagnostics } = parseUvl(text, { fileName: join(corpus.dir, f.path), loader: diskLoader });
    if (diagnostics.some((d) => d.severity === 'error')) throw new Error(`${f.path} does not parse`);
    if (!model.root) continue;
    try {
      yield { path: f.path, text, model, truth: bruteForceModel(model) };
    } catch (error) {
      if (error instanceof TooManyFeatures) continue; // imports add features the manifest does not count
      throw error;
    }
  }
}
