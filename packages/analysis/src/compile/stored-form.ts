// The compiled form as bytes, to be stored once and loaded instead of compiled again (issue 37,
// item 1): automotive2_4 compiles in 5 to 12 s and every worker that counted on it compiled it
// again; its form is about 2 MB and loads in the time the model takes to encode (under 1 s).
//
// The bytes hold the decision-DNNF's typed arrays, its narrow components (TABLE nodes: their
// residual formulas; each elimination is found again at its first query, as for a form that
// the compiler did not plan), and the reduced literal of each feature variable. The encoding is
// not stored: the loader makes it again from the model (it names the features and the ignored
// constraints), and refuses bytes whose sizes do not fit that encoding.
import type { UvlModel } from '../../../uvl/src/index.ts';
import { encodeModel } from '../encode.ts';
import { CompiledModel } from './compiled-model.ts';
import type { DecisionDnnf } from './decision-dnnf.ts';
import type { NarrowLeaf } from './narrow-leaf.ts';

/** "UVLF" and the layout's number: a change of layout makes older bytes refused (then compiled again). */
const MAGIC = 0x55564c46;
const LAYOUT = 1;

/** The bytes do not hold a compiled form of this model (another layout, truncated, another model). */
export class StoredFormError extends Error {}

/** Int32 words, written in order: counts first, then the arrays they size. */
class Words {
  private parts: Int32Array[] = [];
  private length = 0;

  push(...values: number[]): void {
    this.add(Int32Array.from(values));
  }

  add(array: Int32Array): void {
    this.parts.push(array);
    this.length += array.length;
  }

  /** The array's length, then the array. */
  sized(array: Int32Array): void {
    this.push(array.length);
    this.add(array);
  }

  /** Bytes as one array of words (a Uint8Array is widened: the forms' kinds, a few bytes per node). */
  bytes(): Uint8Array {
    const out = new Int32Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return new Uint8Array(out.buffer);
  }
}

/** The compiled form as bytes (compiledFromBytes reads them back). */
export function compiledFormBytes(compiled: CompiledModel): Uint8Array {
  const form = compiled.form;
  const literalOf = compiled.featureLiterals;
  const words = new Words();
  words.push(MAGIC, LAYOUT, compiled.names.length, form.vars, form.nodes, form.leaves.length);
  // Each array with its length: the builder's arrays need not be sized by the node count.
  for (const array of [Int32Array.from(form.kind), form.childStart, form.children, form.litStart, form.lits, form.freeStart, form.free, form.leafOf, literalOf]) words.sized(array);
  for (const leaf of form.leaves) {
    const f = leaf.formula;
    words.push(f.vars, f.clauses);
    for (const array of [leaf.vars, f.clauseStart, f.lits]) words.sized(array);
  }
  return words.bytes();
}

/** Reads words in order, refusing to read past the end. */
class Reader {
  private at = 0;
  constructor(private readonly words: Int32Array) {}

  next(): number {
    if (this.at >= this.words.length) throw new StoredFormError('The stored form is truncated.');
    return this.words[this.at++]!;
  }

  /** A copy, so that the form does not keep the whole buffer alive through a view. */
  take(length: number): Int32Array<ArrayBuffer> {
    if (length < 0 || this.at + length > this.words.length) throw new StoredFormError('The stored form is truncated.');
    const out = this.words.slice(this.at, this.at + length);
    this.at += length;
    return out;
  }

  /** An array written with its length. */
  sized(): Int32Array<ArrayBuffer> {
    return this.take(this.next());
  }

  get done(): boolean {
    return this.at === this.words.length;
  }
}

/**
 * The compiled form of `model` from bytes compiledFormBytes wrote for the same model text (the
 * caller keys them by its SHA-256 and the engine version). StoredFormError for bytes of another
 * layout or size: the caller then compiles.
 */
export function compiledFromBytes(model: UvlModel, bytes: Uint8Array, text?: string): CompiledModel {
  if (bytes.byteLength % 4 !== 0) throw new StoredFormError('The stored form is not a whole number of words.');
  // A copy when unaligned (a Buffer from a pool or a read may start anywhere; its slice() is no copy).
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  const read = new Reader(new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4));
  if (read.next() !== MAGIC || read.next() !== LAYOUT) throw new StoredFormError('The stored form has another layout.');
  const encoding = encodeModel(model, text);
  const [features, vars, nodes, leaves] = [read.next(), read.next(), read.next(), read.next()];
  if (features !== encoding.names.length) throw new StoredFormError('The stored form is of another model.');
  const form: DecisionDnnf = {
    vars, nodes, kind: Uint8Array.from(read.sized()),
    childStart: read.sized(), children: read.sized(), litStart: read.sized(), lits: read.sized(),
    freeStart: read.sized(), free: read.sized(), leafOf: read.sized(), leaves: [],
  };
  const literalOf = read.sized();
  if (form.kind.length < nodes || form.childStart.length <= nodes || literalOf.length <= features) throw new StoredFormError('The stored form is of another model.');
  for (let i = 0; i < leaves; i++) form.leaves.push(readLeaf(read));
  if (!read.done) throw new StoredFormError('The stored form is longer than its counts say.');
  return new CompiledModel(encoding, form, literalOf);
}

function readLeaf(read: Reader): NarrowLeaf {
  const [formulaVars, clauses] = [read.next(), read.next()];
  const vars = read.sized();
  return { vars, formula: { vars: formulaVars, clauses, clauseStart: read.sized(), lits: read.sized() } };
}
