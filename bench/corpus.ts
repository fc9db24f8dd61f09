// The corpus models the analysis benchmarks run on: the valid ones of the manifest (the official
// verdicts), narrowed by BENCH_ONLY (a part of their path). Exits when there is no corpus.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusModel {
  path: string;
  valid: boolean;
  features?: number;
  reader_error?: string;
}

export function validCorpusModels(): { corpusDir: string; files: CorpusModel[] } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const corpusDir = process.env.UVL_CORPUS ?? join(root, '../shared/uvl-corpus');
  const only = process.env.BENCH_ONLY;
  let manifest: { files: CorpusModel[] };
  try {
    manifest = JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8'));
  } catch {
    console.error(`UVL corpus not found at ${corpusDir} (set UVL_CORPUS)`);
    process.exit(1);
  }
  const files = manifest.files.filter((f) => f.valid && f.features !== undefined && (!only || f.path.includes(only)));
  return { corpusDir, files };
}
