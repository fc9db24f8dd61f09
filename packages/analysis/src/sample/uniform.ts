// Uniform sampling on the compiled form (compile/decision-dnnf.ts), top-down: an OR node picks
// a child with probability (its count / the node's count), an AND node visits all its children,
// sets its literals, and draws each open free variable with a fair coin. Since the form is
// deterministic, decomposable and smooth, each model of the root is drawn with probability
// exactly 1 / count: the probabilities along its one path multiply to that.
//
// The choice at an OR node is exact, not a floating-point ratio: it draws r uniform in
// [0, total) and takes the first child when r < first. r's top 53 bits decide at once unless
// they equal the top bits of `first` or `total`; only then are the low bits drawn (as a BigInt).

import { OR_KIND, setLiterals, TABLE_KIND, type DecisionDnnf, type FixedValues } from '../compile/decision-dnnf.ts';
import { leafDraw, leafTables } from '../compile/narrow-leaf.ts';
import type { BucketTables } from '../count/tree-decomposition.ts';
import { SeededRandom } from './prng.ts';

/**
 * The draws at OR nodes: r = top * 2^shift + low with top drawn in [0, 2^topBits), set up
 * for each node on its first visit from its BigInt counts (topBits 0: not yet).
 */
class BranchDraws {
  private readonly shift: Int32Array;
  private readonly topBits: Int32Array;
  private readonly totalTop: Float64Array;
  private readonly firstTop: Float64Array;

  constructor(
    nodes: number,
    private readonly counts: bigint[],
    private readonly random: SeededRandom,
  ) {
    this.shift = new Int32Array(nodes);
    this.topBits = new Int32Array(nodes);
    this.totalTop = new Float64Array(nodes);
    this.firstTop = new Float64Array(nodes);
  }

  /** True with probability exactly counts[first] / counts[node]. */
  drawFirst(node: number, first: number): boolean {
    if (this.topBits[node] === 0) this.setUp(node, first);
    const bits = this.topBits[node]!;
    const totalTop = this.totalTop[node]!;
    const firstTop = this.firstTop[node]!;
    const shift = this.shift[node]!;
    if (bits <= 32) {
      // Counts below 2^32 (most nodes): r is 32 random bits' top ones, rejected while >= total.
      for (;;) {
        const r = this.random.nextUint32() >>> (32 - bits);
        if (r < totalTop) return r < firstTop;
      }
    }
    for (;;) {
      const top = Math.floor(this.random.nextUint53() / 2 ** (53 - bits));
      if (shift === 0) {
        // Counts below 2^53: r is top itself.
        if (top >= totalTop) continue;
        return top < firstTop;
      }
      if (top > totalTop) continue; // r >= total: draw again
      if (top < firstTop) return true;
      if (top > firstTop && top < totalTop) return false;
      // On a boundary the low bits decide.
      const r = (BigInt(top) << BigInt(shift)) | this.random.nextBits(shift);
      if (r >= this.counts[node]!) continue;
      return r < this.counts[first]!;
    }
  }

  private setUp(node: number, first: number): void {
    const total = this.counts[node]!;
    const length = bitLength(total);
    const shift = Math.max(0, length - 53);
    const s = BigInt(shift);
    this.shift[node] = shift;
    this.topBits[node] = length - shift;
    this.totalTop[node] = Number(total >> s);
    this.firstTop[node] = Number(this.counts[first]! >> s);
  }
}

function bitLength(x: bigint): number {
  if (x === 0n) return 0;
  const hex = x.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
}

/**
 * N models of the form's root agreeing with `fixed`, each drawn uniformly and independently, as
 * values of the reduced variables (1 true, -1 false), one at a time; `counts` are nodeCounts(form,
 * fixed), whose root count must not be zero. The same form, fixed values, n and seed give the same models.
 */
export function* sampleReduced(form: DecisionDnnf, fixed: FixedValues, counts: bigint[], n: number, seed: number): Generator<Int8Array> {
  const random = new SeededRandom(seed);
  const draws = new BranchDraws(form.nodes, counts, random);
  const leaves = new LeafDraws(form, fixed, random);
  // At most every edge's child waits on the stack.
  const stack = new Int32Array(form.children.length + 1);
  for (let s = 0; s < n; s++) {
    const values = fixed.slice();
    drawModel(form, draws, leaves, random, values, stack);
    yield values;
  }
}

/** Models of TABLE nodes' components, with each component's tables made on its first visit. */
class LeafDraws {
  private readonly tables = new Map<number, BucketTables>();
  private held = 0;

  constructor(
    private readonly form: DecisionDnnf,
    private readonly fixed: FixedValues,
    private readonly random: SeededRandom,
  ) {}

  draw(node: number, values: Int8Array): void {
    const index = this.form.leafOf[node]!;
    const leaf = this.form.leaves[index]!;
    let tables = this.tables.get(index);
    if (tables === undefined) {
      tables = leafTables(leaf, this.fixed, 'doubles');
      // Past about 256 MB of tables the oldest are made again when needed.
      this.held += tables.pool.length;
      if (this.held > LEAF_TABLES_HELD) {
        this.tables.clear();
        this.held = tables.pool.length;
      }
      this.tables.set(index, tables);
    }
    const local = new Int8Array(leaf.vars.length);
    for (let i = 0; i < local.length; i++) local[i] = values[leaf.vars[i]!]!;
    leafDraw(tables, local, this.random, () => leafTables(leaf, this.fixed, 'max'));
    for (let i = 0; i < local.length; i++) values[leaf.vars[i]!] = local[i]!;
  }
}

const LEAF_TABLES_HELD = 1 << 25;

/** One model into `values`, top-down from the root (a plain function: the generator above is not optimized as well). */
function drawModel(form: DecisionDnnf, draws: BranchDraws, leaves: LeafDraws, random: SeededRandom, values: Int8Array, stack: Int32Array): void {
  const { kind, childStart, children, freeStart, free } = form;
  // Imported bindings read once: under a CommonJS transform (tsx) each read is a getter call.
  const orKind = OR_KIND;
  const assign = setLiterals;
  let top = 0;
  stack[top++] = form.nodes - 1;
  while (top > 0) {
    let node = stack[--top]!;
    // A decision node has two children (the builder makes no other OR nodes); the chosen one is next.
    while (kind[node] === orKind) {
      const a = children[childStart[node]!]!;
      node = draws.drawFirst(node, a) ? a : children[childStart[node]! + 1]!;
    }
    if (kind[node] === TABLE_KIND) {
      leaves.draw(node, values);
      continue;
    }
    assign(form, node, values);
    for (let k = freeStart[node]!; k < freeStart[node + 1]!; k++) {
      const v = free[k]!;
      if (values[v] === 0) values[v] = random.nextUint32() & 1 ? 1 : -1;
    }
    for (let k = childStart[node]!; k < childStart[node + 1]!; k++) stack[top++] = children[k]!;
  }
}
