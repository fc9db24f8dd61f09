// The feature diagram on small models: one element per shown feature with its classes, FODA
// marks, collapse beyond depth 3 over 300 features, subtrees by root and depth, escaping, and
// refused query values. No database, no server: renderDiagram is a pure function.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseUvl } from '../../../packages/uvl/src/index.ts';
import { COLLAPSE_THRESHOLD, DiagramQueryError, FLOOR_SCALE, parseDiagramQuery, renderDiagram } from './diagram.ts';
import { countDisplay, explanationLine, factLabel } from './fact-label.ts';
import { highlightFirstLines, highlightLines, lineCount, MAX_HIGHLIGHTED_LINE } from './highlight.ts';

const CAR = `features
    Car {abstract}
        mandatory
            Engine
                alternative
                    Petrol
                    Electric
        optional
            Turbo
            "Sun <Roof> & 'Co'"
        or
            Radio
            Navigation
        [1..2]
            Red
            Blue
            Green

constraints
    Electric => !Turbo
`;

const model = (text: string) => {
  const { model, diagnostics } = parseUvl(text);
  assert.deepEqual(diagnostics.filter((d) => d.severity === 'error'), []);
  return model;
};

/** The shown features: data-feature → classes, read back from the SVG text. */
function features(svg: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of svg.matchAll(/<g class="([^"]*)" data-feature="([^"]*)"(?: data-open="")?>/g)) out.set(m[2]!, m[1]!.split(' '));
  return out;
}

/** A model of n features: a root with groups of 10 optional children, nested 4 levels. */
function bigModel(): string {
  const lines = ['features', '    R'];
  let n = 1;
  const add = (indent: number, prefix: string, depth: number) => {
    lines.push(`${' '.repeat(indent)}optional`);
    for (let i = 0; i < 7; i++) {
      const name = `${prefix}_${i}`;
      lines.push(`${' '.repeat(indent + 4)}${name}`);
      n++;
      if (depth < 4) add(indent + 8, name, depth + 1);
    }
  };
  add(8, 'F', 1);
  assert.ok(n > COLLAPSE_THRESHOLD, `the generated model has ${n} features`);
  return lines.join('\n') + '\n';
}

describe('feature diagram', () => {
  it('draws one element per feature with data-feature, anomaly classes and abstract', () => {
    const svg = renderDiagram(model(CAR), { anomalies: { core: ['Car', 'Engine'], dead: ['Turbo'], falseOptional: ['Radio'] } });
    const shown = features(svg);
    assert.equal(shown.size, 11);
    assert.deepEqual(shown.get('Car'), ['feature', 'core', 'abstract']);
    assert.deepEqual(shown.get('Engine'), ['feature', 'core']);
    assert.deepEqual(shown.get('Turbo'), ['feature', 'dead']);
    assert.deepEqual(shown.get('Radio'), ['feature', 'false-optional']);
    assert.deepEqual(shown.get('Petrol'), ['feature']);
    assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
    // The legend names every colour and mark.
    for (const key of ['core', 'dead', 'false-optional', 'abstract', 'mandatory', 'optional', 'alternative', 'or', 'group cardinality']) {
      assert.ok(svg.includes(`>${key}<`) || svg.includes(`${key}</text>`), `legend has ${key}`);
    }
  });

  it('draws FODA marks: filled and empty circles, alternative and or arcs, group cardinality', () => {
    const svg = renderDiagram(model(CAR));
    const circles = [...svg.matchAll(/<circle [^>]*fill="(#[0-9a-f]+)"/g)].map((m) => m[1]);
    // Outside the legend: Engine mandatory (filled); Turbo and the roof optional (empty).
    const inTree = svg.slice(svg.indexOf('class="decorations"'));
    assert.equal([...inTree.matchAll(/<circle [^>]*fill="#212529"/g)].length, 1);
    assert.equal([...inTree.matchAll(/<circle [^>]*fill="#ffffff"/g)].length, 2);
    assert.ok(circles.length >= 3);
    assert.match(inTree, /<path class="group alternative"[^>]*fill="none"/);
    assert.match(inTree, /<path class="group or"[^>]*fill="#212529"/);
    assert.match(inTree, /<path class="group cardinality"/);
    assert.match(inTree, /<text class="group-cardinality"[^>]*>\[1\.\.2\]<\/text>/);
    assert.doesNotMatch(svg, /class="feature[^"]*(core|dead)/, 'no anomaly colours without an analysis');
    assert.match(svg, /Anomalies are coloured once the analysis has finished/);
  });

  it('escapes every name in text and attributes', () => {
    const svg = renderDiagram(model(CAR), { anomalies: { core: [], dead: ["Sun <Roof> & 'Co'"], falseOptional: [] } });
    assert.ok(svg.includes(`data-feature="Sun &lt;Roof&gt; &amp; &#39;Co&#39;"`));
    assert.ok(svg.includes('>Sun &lt;Roof&gt; &amp; &#39;Co&#39;</text>'));
    assert.ok(!svg.includes('<Roof>'));
    assert.deepEqual(features(svg).get("Sun &lt;Roof&gt; &amp; &#39;Co&#39;"), ['feature', 'dead']);
  });

  it(`opens a model over ${COLLAPSE_THRESHOLD} features collapsed to depth 3, with links into collapsed nodes`, () => {
    const m = model(bigModel());
    const svg = renderDiagram(m);
    const shown = features(svg);
    assert.equal(shown.size, 1 + 7 + 49 + 343);
    assert.ok(shown.has('F_0_0_0'));
    assert.ok(!shown.has('F_0_0_0_0'), 'depth 4 is collapsed');
    assert.ok(shown.get('F_0_0_0')!.includes('collapsed'));
    assert.ok(svg.includes('<a href="?root=F_0_0_0">'), 'a collapsed node links to its subtree');
    // The hidden subtree's size is a count beside the box (it was "F_0_0_0 ▸ 7" in the label).
    assert.match(svg, /data-feature="F_0_0_0"><a [^>]*><title>F_0_0_0 \(7 more features below: open\)<\/title><rect [^>]*\/><text [^>]*>F_0_0_0<\/text><rect class="count"[^>]*\/><text class="count"[^>]*>\+7<\/text>/);
    // Fully open on request.
    assert.equal(features(renderDiagram(m, { depth: 10 })).size, 1 + 7 + 49 + 343 + 2401);
  });

  it('expands and collapses single features on request (open, close), marking shown parents data-open', () => {
    const m = model(bigModel());
    const svg = renderDiagram(m, { open: ['F_0_0_0'], close: ['F_1'] });
    const shown = features(svg);
    assert.ok(shown.has('F_0_0_0_0'), 'an opened feature shows its children below the depth limit');
    assert.ok(!shown.has('F_0_0_1_0'), 'its siblings stay collapsed');
    assert.ok(!shown.has('F_1_0'), 'a closed feature hides its children');
    assert.ok(shown.get('F_1')!.includes('collapsed'));
    assert.equal(shown.size, 1 + 7 + 49 + 343 + 7 - 7 - 49);
    assert.match(svg, /<g class="feature" data-feature="F_0_0_0" data-open="">/);
    assert.match(svg, /<g class="feature collapsed" data-feature="F_1">/);
    assert.deepEqual(parseDiagramQuery({ open: ['A', 'B'], close: 'C' }), { open: ['A', 'B'], close: ['C'] });
    assert.throws(() => parseDiagramQuery({ open: '' }), DiagramQueryError);
    assert.throws(() => parseDiagramQuery({ close: Array.from({ length: 501 }, (_, i) => `F${i}`) }), DiagramQueryError);
  });

  it("puts the subtree's parent and whole-model links on a row of their own, below the legend's note", () => {
    const svg = renderDiagram(model(bigModel()), { root: 'F_2_3', depth: 1 });
    const note = Number(/class="legend-note" x="\d+" y="(\d+)"/.exec(svg)![1]);
    const up = Number(/class="up" href="[^"]*"><text x="\d+" y="(\d+)"/.exec(svg)![1]);
    assert.ok(up - note >= 14, `the links (y ${up}) are a line below the note (y ${note})`);
  });

  it('shows a subtree with root and depth, with a link up to the parent', () => {
    const m = model(bigModel());
    const svg = renderDiagram(m, { root: 'F_2_3', depth: 1, linkSuffix: '#diagram' });
    assert.deepEqual([...features(svg).keys()], ['F_2_3', ...Array.from({ length: 7 }, (_, i) => `F_2_3_${i}`)]);
    assert.ok(svg.includes('<a href="?root=F_2_3_0&amp;depth=1#diagram">'));
    assert.ok(svg.includes('<a class="up" href="?root=F_2&amp;depth=1#diagram">'));
    assert.equal(features(renderDiagram(m, { root: 'F_2_3' })).size, 1 + 7 + 49, 'a small subtree opens whole');
    const small = renderDiagram(model(CAR), { depth: 1 });
    assert.equal(features(small).size, 1 + 8, "the root and its eight children");
    assert.ok(features(small).get("Engine")!.includes("collapsed"));
    assert.throws(() => renderDiagram(m, { root: 'Nope' }), DiagramQueryError);
  });

  it('reads depth and root from the query, refusing malformed or repeated values', () => {
    assert.deepEqual(parseDiagramQuery({}), {});
    assert.deepEqual(parseDiagramQuery({ depth: '2', root: 'Engine' }), { depth: 2, root: 'Engine' });
    for (const bad of [{ depth: 'x' }, { depth: '-1' }, { depth: '1.5' }, { depth: '1001' }, { depth: ['1', '2'] }, { root: '' }, { root: ['A', 'B'] }]) {
      assert.throws(() => parseDiagramQuery(bad), DiagramQueryError, JSON.stringify(bad));
    }
  });

  it('folds a flat model to a frame: a "+n more" box, wrapped columns, every text at least 11 units, the drawing within the frame at the floor', () => {
    // A root with 400 childless children: at fit it was a column 10 400 units high.
    const flat = model(`features\n    Root\n        optional\n${Array.from({ length: 400 }, (_, i) => `            Child_${i}\n`).join('')}`);
    const fit = { width: 680, height: 600 };
    const svg = renderDiagram(flat, { fit });
    const [w, h] = /width="(\d+)" height="(\d+)"/.exec(svg)!.slice(1).map(Number);
    assert.ok(w * FLOOR_SCALE <= fit.width && h * FLOOR_SCALE <= fit.height, `${w} x ${h} units fit 680 x 600 px at the floor`);
    const shown = features(svg);
    assert.ok(shown.size > 40 && shown.size < 400, `${shown.size} features drawn`);
    const more = /<g class="more" data-more-of="Root"><a href="\?root=Root"><title>(\d+) more children of Root: show them<\/title>.*?>\+(\d+) more<\/text>/.exec(svg);
    assert.ok(more && more[1] === more[2], 'the folded children are one "+n more" box');
    assert.equal(shown.size - 1 + Number(more![1]), 400, 'every child is drawn or counted');
    const columns = new Set([...svg.matchAll(/<g class="feature" data-feature="Child_\d+"><title>[^<]*<\/title><rect x="(\d+)"/g)].map((m) => m[1]));
    assert.ok(columns.size >= 2, `the children wrap into ${columns.size} columns`);
    for (const m of svg.matchAll(/font-size="(\d+)"/g)) assert.ok(Number(m[1]) >= 11, `font-size ${m[1]}`);
    // Opened by name (the "+n more" box's click): every child, still wrapped.
    const opened = renderDiagram(flat, { fit, open: ['Root'] });
    assert.equal(features(opened).size, 401);
    assert.doesNotMatch(opened, /class="more"/);
    // Without a frame nothing folds: the contract's drawing (diagram.svg) is unchanged in what it shows.
    assert.equal(features(renderDiagram(flat)).size, 401);
  });

  it('shortens long labels in the middle in a frame too narrow for their columns; a phone gets an outline with whole names', () => {
    const long = (i: number) => `N_379925076__F_${String(i).padStart(12, '0')}`;
    const text = `features\n    ${long(0)}\n        mandatory\n${[1, 2, 3].map((i) => `            ${long(i)}\n                optional\n${[1, 2, 3, 4, 5].map((j) => `                    ${long(i * 10 + j)}\n`).join('')}`).join('')}`;
    const medium = renderDiagram(model(text), { fit: { width: 480, height: 560 } });
    const [w] = /width="(\d+)"/.exec(medium)!.slice(1).map(Number);
    assert.ok(w * FLOOR_SCALE <= 480, `${w} units fit the frame at the floor`);
    assert.match(medium, />N_3799[^<]*…[^<]*0000\d\d<\/text>/, 'both ends of a shortened name are kept');
    assert.match(medium, /<title>N_379925076__F_000000000011<\/title>/, 'the title keeps the whole name');
    // A phone: each feature on its own row, children indented below their parent, names whole.
    const phone = renderDiagram(model(text), { fit: { width: 320, height: 560 } });
    assert.doesNotMatch(phone, /…/);
    const at = (name: string) => /<rect x="(\d+)" y="([\d.]+)"/.exec(phone.slice(phone.indexOf(`data-feature="${name}"`)))!.slice(1).map(Number);
    const [rootX, rootY] = at(long(0));
    const [childX, childY] = at(long(1));
    const [grandX, grandY] = at(long(11));
    assert.ok(childX > rootX && grandX > childX && childY > rootY && grandY > childY, 'indented below the parent');
    assert.equal(features(phone).size, 19, 'two levels on a phone, whole');
    assert.equal(features(renderDiagram(model(text), { fit: { width: 1200, height: 800 } })).size, 19, 'a wide frame draws it whole too');
  });

  it('draws an opened feature whole on top of the fitted drawing, folding nothing else for it', () => {
    const m = model(bigModel());
    const fit = { width: 680, height: 600 };
    const before = features(renderDiagram(m, { fit }));
    const collapsed = [...before].find(([, classes]) => classes.includes('collapsed'))![0];
    const after = features(renderDiagram(m, { fit, open: [collapsed] }));
    for (const name of before.keys()) assert.ok(after.has(name), `${name} is still drawn after ${collapsed} opened`);
    assert.ok(after.size > before.size, 'the opened feature shows its children');
    assert.ok(!after.get(collapsed)!.includes('collapsed'));
  });

  it('reads fit from the query as a frame in pixels, refusing others', () => {
    assert.deepEqual(parseDiagramQuery({ fit: '680x600' }), { fit: { width: 680, height: 600 } });
    for (const bad of ['680', '680x', 'x600', '100x600', '680x5000', '680.5x600', ['680x600', '680x600']]) {
      assert.throws(() => parseDiagramQuery({ fit: bad }), DiagramQueryError, JSON.stringify(bad));
    }
  });

  it('draws a message for a model without features', () => {
    assert.match(renderDiagram(model('namespace Empty\n')), /no features to draw/);
  });
});

describe('fact label and source helpers', () => {
  it('shows a long count as mantissa and exponent with every digit kept', () => {
    assert.deepEqual(countDisplay('10240'), { grouped: '10\u2009240', digits: 5, full: '10240' });
    const big = countDisplay('1901475900342344102245054808062');
    assert.equal(big.mantissa, '1.90');
    assert.equal(big.exponent, 30);
    assert.equal(big.full, '1901475900342344102245054808062');
  });

  it('keeps lists that ran out of time unknown (null), not empty', () => {
    const metrics = { features: 3, leaf_features: 2, abstract_features: 0, compound_features: 1, depth: 1, groups: { or: 0, alternative: 0, cardinality: 0 }, constraints: 1, simple_constraints: 1, complex_constraints: 0, features_in_constraints: 2, attributes: 0, typed_features: 0, language_level: 'boolean' as const };
    const label = factLabel({
      valid: true, boolean_only: true, ignored_constraints: 0, satisfiable: true, configurations: null, configurations_status: 'timeout',
      core: ['R'], dead: null, false_optional: null, variant: null, atomic_sets: null,
      explanations: { void: [], dead: {}, false_optional: {} }, metrics, timings_ms: {}, timeouts: ['count', 'false_optional'],
    });
    assert.equal(label.count, null);
    assert.equal(label.dead, null);
    assert.equal(label.falseOptional, null);
    assert.deepEqual(label.core, ['R']);
    assert.deepEqual(label.timeouts, ['count', 'false_optional']);
  });

  it('shows an estimate of the count as an estimate, with its guarantee, and only when the exact count is missing', () => {
    const metrics = { features: 3, leaf_features: 2, abstract_features: 0, compound_features: 1, depth: 1, groups: { or: 0, alternative: 0, cardinality: 0 }, constraints: 1, simple_constraints: 1, complex_constraints: 0, features_in_constraints: 2, attributes: 0, typed_features: 0, language_level: 'boolean' as const };
    const base = {
      valid: true as const, boolean_only: true, ignored_constraints: 0, satisfiable: true, core: ['R'], dead: [], false_optional: [], variant: [], atomic_sets: [],
      explanations: { void: [], dead: {}, false_optional: {} }, metrics, timings_ms: {},
    };
    const estimate = { value: '1230000000000000000000000000000000000000000000', log10: 45.09, epsilon: 0.8, delta: 0.2, method: 'ApproxMC (test)' };
    const label = factLabel({ ...base, configurations: null, configurations_status: 'timeout', timeouts: ['count'], configurations_estimate: estimate });
    assert.equal(label.count, null);
    assert.equal(label.estimate!.mantissa, '1.2');
    assert.equal(label.estimate!.exponent, 45);
    assert.equal(label.estimate!.guarantee, 'within a factor 1.8 of the exact count with probability at least 0.8');
    assert.equal(label.estimate!.method, 'ApproxMC (test)');
    const small = factLabel({ ...base, configurations: null, configurations_status: 'timeout', configurations_estimate: { ...estimate, value: '70866960384', log10: 10.85 } });
    assert.equal(small.estimate!.grouped, '70\u2009866\u2009960\u2009384');
    const exact = factLabel({ ...base, configurations: '6', configurations_status: 'exact', configurations_estimate: estimate });
    assert.equal(exact.estimate, null);
  });

  it('splits explanation lines into the line number and the constraint', () => {
    assert.deepEqual(explanationLine('Line 14: Diesel => !Turbo'), { line: 14, text: 'Diesel => !Turbo' });
    assert.deepEqual(explanationLine('odd'), { text: 'odd' });
  });

  it('highlights each line on its own, escaped, block comments closed per line', () => {
    const lines = highlightLines('features\n\t"A<b>" // x\n/* a\nb */ Integer n\n');
    assert.equal(lines.length, 4);
    assert.equal(lines[0], '<span class="uvl-keyword">features</span>');
    assert.equal(lines[1], '\t<span class="uvl-name">&quot;A&lt;b&gt;&quot;</span> <span class="uvl-comment">// x</span>');
    assert.equal(lines[2], '<span class="uvl-comment">/* a</span>');
    assert.equal(lines[3], '<span class="uvl-comment">b */</span> <span class="uvl-keyword">Integer</span> <span class="uvl-name">n</span>');
  });

  it(`leaves a line longer than ${MAX_HIGHLIGHTED_LINE} characters as escaped plain text; the others are highlighted`, () => {
    const long = `${'A | '.repeat(MAX_HIGHLIGHTED_LINE / 4)}"<B>"`;
    const text = `features\n    Root\nconstraints\n    ${long}\n    A => B\n`;
    const lines = highlightLines(text);
    assert.equal(lines[3], `    ${long.replace('"<B>"', '&quot;&lt;B&gt;&quot;')}`);
    assert.equal(lines[4], '    <span class="uvl-name">A</span> <span class="uvl-operator">=&gt;</span> <span class="uvl-name">B</span>');
    assert.deepEqual(highlightFirstLines(text, 4), lines.slice(0, 4));
  });

  it('highlights the first lines alone exactly as the whole file gives them, and counts lines as it does', () => {
    const texts = [
      'features\n\t"A<b>" // x\n/* a\nb */ Integer n\n',
      'features\r\n    A\r\n/* open\nstill\nopen */ "q\n"\n',
      'no break at the end',
      '',
      '\n\n\n',
      '/* never closed\n a\n b\n',
    ];
    for (const text of texts) {
      const all = highlightLines(text);
      assert.equal(lineCount(text), all.length, JSON.stringify(text));
      for (const count of [1, 2, 3, 10]) assert.deepEqual(highlightFirstLines(text, count), all.slice(0, count), `${JSON.stringify(text)} first ${count}`);
    }
  });
});
