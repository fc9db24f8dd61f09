// Test support (not part of the library's API): where the conformance corpus is, and
// structural equality of models without positions.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportLoader } from './parser.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ManifestEntry {
  path: string;
  bytes: number;
  valid: boolean;
  first_error_line?: number;
  features?: number;
  constraints?: number;
  reader_error?: string;
  imports?: boolean;
}

export interface Corpus {
  dir: string;
  files: ManifestEntry[];
  read(path: string): string;
}

/**
 * The corpus at $UVL_CORPUS or ../shared/uvl-corpus beside the repository. Absent: undefined
 * (tests skip with a visible reason), except under CI=true, where absence is a failure.
 */
export function findCorpus(): Corpus | undefined {
  const dir = process.env.UVL_CORPUS ?? join(repoRoot, '../shared/uvl-corpus');
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest)) {
    if (process.env.CI === 'true') throw new Error(`UVL corpus not found at ${dir} (set UVL_CORPUS); it is required when CI=true`);
    return undefined;
  }
  const files = (JSON.parse(readFileSync(manifest, 'utf8')) as { files: ManifestEntry[] }).files;
  return { dir, files, read: (path) => readFileSync(join(dir, path), 'utf8') };
}

export const corpusSkipReason = 'UVL corpus not found (set UVL_CORPUS or put it at ../shared/uvl-corpus)';

/** Reads imports from the disk relative to the importing file, like the command line. */
export const diskLoader: ImportLoader = ({ relativePath, importer }) => {
  const path = resolve(importer ? dirname(importer) : '.', relativePath);
  return existsSync(path) ? { fileName: path, text: readFileSync(path, 'utf8') } : undefined;
};

/** A copy without source positions and caller-given names, for structural comparison. */
export function stripPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripPositions);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'span' && k !== 'fileName' && k !== 'resolved') out[k] = stripPositions(v);
    return out;
  }
  return value;
}

/** A small deterministic PRNG (mulberry32) so that fuzzing is reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const IGNORED = new Set(['span', 'fileName', 'resolved']);

/**
 * Structural equality of two models or parts of models, ignoring positions; returns the path
 * of the first difference, or undefined. Iterative (deep trees) and allocation-light.
 */
export function structuralDifference(a: unknown, b: unknown): string | undefined {
  const stack: Array<[unknown, unknown, string]> = [[a, b, '$']];
  while (stack.length > 0) {
    const [x, y, path] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      return path;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return path;
    if (Array.isArray(x)) {
      const ya = y as unknown[];
      if (x.length !== ya.length) return `${path}.length`;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ya[i], `${path}[${i}]`]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = new Set([...Object.keys(xo), ...Object.keys(yo)]);
    for (const k of keys) if (!IGNORED.has(k)) stack.push([xo[k], yo[k], `${path}.${k}`]);
  }
  return undefined;
}
