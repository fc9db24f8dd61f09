// What the comparison page reads of each model text (its feature names and printed constraints),
// remembered by the text's hash: parsing and flattening automotive2_4 (~18,600 features) takes
// about a second per version, and a comparison page polled while its edit class is decided, or
// opened again, would pay it every time (issue 25 item 8). Bounded by the total text it stood for.
import { createHash } from 'node:crypto';
import { flattenModel, modelConstraints, parseUvl, printExpression } from '../../../../packages/uvl/src/index.ts';

export interface ReadModel { features: Set<string>; constraints: Set<string> }

/** The texts' total size the remembered models stand for: their names take a fraction of it. */
const MAX_TEXT_CHARS = 32 * 1024 * 1024;

export class CompareModels {
  private readonly models = new Map<string, { size: number; model: ReadModel | null }>();
  private total = 0;

  /** The model's features and constraints, or null when the text is not valid UVL. */
  read(name: string, text: string): ReadModel | null {
    const key = createHash('sha256').update(text).digest('hex');
    const known = this.models.get(key);
    if (known) return known.model;
    const model = readModel(name, text);
    this.models.set(key, { size: text.length, model });
    this.total += text.length;
    // Oldest out first (Map keeps insertion order), never the one just read.
    for (const [k, entry] of this.models) {
      if (this.total <= MAX_TEXT_CHARS || k === key) break;
      this.models.delete(k);
      this.total -= entry.size;
    }
    return model;
  }
}

function readModel(name: string, text: string): ReadModel | null {
  const parsed = parseUvl(text, { fileName: name });
  if (!parsed.model || parsed.diagnostics.some((d) => d.severity === 'error')) return null;
  return {
    features: new Set(flattenModel(parsed.model).features.map((f) => f.name)),
    constraints: new Set(modelConstraints(parsed.model).map((c) => printExpression(c.expression))),
  };
}
