// A small in-memory cache of what the model page derives from a file's text: the parsed model,
// its errors, the highlighted lines and drawn diagrams. Parsing, highlighting and drawing the
// largest corpus model take a second together; a page that polls while an analysis runs, or
// a diagram opened after its page, should not pay that again. Keyed by the text's hash, so a
// changed file can never be served stale; bounded by the total text it holds, oldest out first.
import { createHash } from 'node:crypto';
import type { UvlModel } from '../../../packages/uvl/src/index.ts';

export interface DerivedModel {
  model: UvlModel;
  errors: string[];
  /** The library's warnings (a constraint naming a non-feature, a name used twice…), at most 20, and how many more. */
  warnings: { shown: string[]; more: number };
  lines?: string[];
  /** The page's first lines, highlighted alone, and the number of lines (model.service.ts, sourceWindow). */
  firstLines?: string[];
  lineCount?: number;
  /** The depth the page opens the diagram at, by shown root ('' for the model's root). */
  openingDepths?: Map<string, number | undefined>;
  /** Drawn diagrams by their options (query and anomaly state). */
  diagrams: Map<string, string>;
  /** What the FeatureIDE export cannot carry over (issue 27), or the reason it cannot be written. */
  featureIdeLosses?: { losses: string[] } | { error: string };
}

// Derived data (highlighted lines, drawings) is a few times the text: about 50 MB at most.
const MAX_TEXT_CHARS = 8 * 1024 * 1024;
const MAX_DIAGRAMS_PER_MODEL = 16;

export function createModelCache(maxChars = MAX_TEXT_CHARS) {
  const entries = new Map<string, { size: number; value: DerivedModel }>();
  let total = 0;

  return {
    keyOf: (text: string) => createHash('sha256').update(text).digest('hex'),

    get(key: string): DerivedModel | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },

    set(key: string, size: number, value: DerivedModel): void {
      if (size > maxChars) return;
      const old = entries.get(key);
      if (old) { total -= old.size; entries.delete(key); }
      entries.set(key, { size, value });
      total += size;
      for (const [k, e] of entries) {
        if (total <= maxChars) break;
        entries.delete(k);
        total -= e.size;
      }
    },

    /** A drawn diagram, drawn once per model, options and anomaly state. */
    diagram(value: DerivedModel, key: string, draw: () => string): string {
      const found = value.diagrams.get(key);
      if (found !== undefined) return found;
      const svg = draw();
      if (value.diagrams.size >= MAX_DIAGRAMS_PER_MODEL) value.diagrams.delete(value.diagrams.keys().next().value!);
      value.diagrams.set(key, svg);
      return svg;
    },
  };
}

export type ModelCache = ReturnType<typeof createModelCache>;
