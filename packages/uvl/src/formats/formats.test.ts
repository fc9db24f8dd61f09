// The readers of FeatureIDE XML, SPLOT SXFM and Glencoe JSON and the FeatureIDE writer on the
// hand-written fixtures (fixtures/): what each construct becomes, the loss reports, the
// configurations (the original counted from a CNF written straight from the file, the
// converted UVL by the analysis engine), errors with line and column, and format detection.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseUvl, printUvl, readFeatureIde, readGlencoe, readModelFile, readSxfm, toFeatureIde, toGlencoe, toSplot } from '../index.ts';
import { countDirect, countModelConfigurations } from './count.support.ts';
import { featureIdeCnf, glencoeCnf, sxfmCnf } from './direct-cnf.support.ts';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const CASES = [
  { file: 'car.featureide.xml', read: readFeatureIde, direct: featureIdeCnf },
  { file: 'shop.extended.xml', read: readFeatureIde, direct: featureIdeCnf },
  { file: 'phone.sxfm', read: readSxfm, direct: sxfmCnf },
  { file: 'editor.glencoe.json', read: readGlencoe, direct: glencoeCnf },
];

describe('fixtures convert with the configurations of the original', () => {
  for (const c of CASES) {
    test(c.file, () => {
      const text = fixture(c.file);
      const r = c.read(text);
      assert.deepEqual(r.errors, []);
      assert.ok(r.model && r.uvl);
      assert.equal(printUvl(r.model), r.uvl, 'the model is the printed UVL parsed back');
      const original = countDirect(c.direct(text));
      assert.ok(original !== null && original > 0n);
      assert.equal(countModelConfigurations(r.model), original);
    });
  }
});

describe('FeatureIDE reader', () => {
  test('groups, mandatory and abstract features, hidden, descriptions, every rule element', () => {
    const r = readFeatureIde(fixture('car.featureide.xml'));
    const uvl = r.uvl!;
    assert.match(uvl, /^ {4}Car \{abstract, description 'A car & its options'\}$/m);
    assert.match(uvl, /^ {8}mandatory\n {12}Body\n {12}Engine\n {16}alternative\n {20}Petrol$/m);
    assert.match(uvl, /^ {12}Comfort \{abstract, description 'Extras the buyer may choose'\}\n {16}or$/m);
    assert.match(uvl, /Maps_v2 \{hidden\}/);
    assert.match(uvl, /^ {4}Voice <=> Maps_v2$/m);
    assert.match(uvl, /^ {4}!\("Tow bar" & \(Electric \| !Body\)\)$/m);
    assert.match(uvl, /^ {4}!\(Sensors & Camera\) & !\(Sensors & Lidar\) & !\(Camera & Lidar\)$/m, 'atmost1 as pairs');
    assert.match(uvl, /^ {4}Navigation & "Air Condition" => Sensors \| \(Camera <=> !Diesel\)$/m);
    assert.deepEqual(r.losses, [
      "description of constraint 1 dropped: UVL constraints carry no text ('Electric cars are heated electrically')",
      '<comments> dropped: UVL keeps no comments from another format',
      'feature `Maps.v2` renamed to `Maps_v2`: UVL names hold no dot, double quote or line break, and are unique',
      'attribute `description` of `Comfort` changed: UVL strings hold no line break, single quote or empty text',
    ]);
  });

  test('extended models: typed attributes as UVL attributes, unit, recursive and configurable listed', () => {
    const r = readFeatureIde(fixture('shop.extended.xml'));
    assert.match(r.uvl!, /Catalogue \{items 500, cache true\}/);
    assert.match(r.uvl!, /Payment \{fee 0\.35\}/);
    assert.match(r.uvl!, /Shop \{abstract, version '1\.2'\}/);
    assert.match(r.uvl!, /"Full-text" \{latency 'twelve'\}/);
    assert.equal(r.losses.length, 5);
    assert.ok(r.losses.includes('unit `EUR` of attribute `fee` of `Payment` dropped: UVL attributes have no unit'));
    assert.ok(r.losses.some((l) => l.startsWith('attribute `risk` of `Crypto` is recursive')));
    assert.ok(r.losses.some((l) => l.startsWith('attribute `limit` of `Card` is configurable')));
    assert.ok(r.losses.some((l) => l.startsWith("attribute `latency` of `Full-text`: value 'twelve' is not a number")));
  });

  test('numbers with exponents are written as UVL decimals', () => {
    const attribute = (value: string) => readFeatureIde(`<extendedFeatureModel><struct><feature name="A"><attribute name="x" type="double" value="${value}"/></feature></struct></extendedFeatureModel>`).uvl;
    assert.equal(attribute('1.5e-7'), 'features\n    A {x 0.00000015}\n');
    assert.equal(attribute('-2E21'), `features\n    A {x -2${'0'.repeat(21)}}\n`);
  });

  test('a model that loses nothing has an empty loss list', () => {
    const r = readFeatureIde('<featureModel><struct><or name="R"><feature name="A"/><feature name="B"/></or></struct></featureModel>');
    assert.deepEqual(r.losses, []);
    assert.equal(r.uvl, 'features\n    R\n        or\n            A\n            B\n');
  });
});

describe('SXFM reader', () => {
  test('[n,m] groups, mixed solitary features and groups, clauses by id', () => {
    const r = readSxfm(fixture('phone.sxfm'));
    assert.match(r.uvl!, /^ {12}Screen\n {16}alternative\n/m);
    assert.match(r.uvl!, /^ {16}or\n {20}Camera\n {24}optional\n {28}Flash$/m);
    assert.match(r.uvl!, /^ {16}\[2\.\.3\]\n {20}"Codec A"$/m);
    assert.match(r.uvl!, /^ {16}\[0\.\.1\]\n {20}Stereo$/m);
    assert.match(r.uvl!, /^ {4}!Camera \| "High resolution" \| Colour$/m);
    assert.deepEqual(r.losses, [
      "meta data <description> dropped: UVL has no place for it ('A small phone product line')",
      "meta data <creator> dropped: UVL has no place for it ('hub tests')",
    ]);
  });
});

describe('SXFM without ids', () => {
  test('a line without id is a feature of its own, even when its name repeats', () => {
    const text = '<feature_model name="x">\n<feature_tree>\n:r Root\n\t:o Form\n\t\t:o Shape\n\t:m Rule\n\t\t:o Form\n</feature_tree>\n<constraints>\nC1: ~Shape or Rule\n</constraints>\n</feature_model>';
    const r = readSxfm(text);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.losses, ['feature `Form` renamed to `Form_2`: UVL names hold no dot, double quote or line break, and are unique']);
    assert.equal(countModelConfigurations(r.model!), countDirect(sxfmCnf(text)));
    assert.equal(countModelConfigurations(r.model!), 6n);
    assert.match(readSxfm(text.replace(':o Shape', ':o Shape (s)').replace(':m Rule', ':m Rule (s)')).errors[0]!, /^Line 6:1 - feature id 's' is used twice$/);
  });
});

describe('Glencoe reader', () => {
  test('XOR, OR, GENOR, mandatory and optional features, every term, editor properties', () => {
    const r = readGlencoe(fixture('editor.glencoe.json'));
    assert.match(r.uvl!, /^ {16}\[2\.\.3\]\n {20}Lidar$/m);
    assert.match(r.uvl!, /"Suction cup" \{description 'for flat parts'\}/);
    assert.match(r.uvl!, /^ {4}!\(Gripper & Legs\)$/m);
    assert.match(r.uvl!, /^ {4}Lidar <=> Legs \| Bumper$/m);
    assert.match(r.uvl!, /^ {4}!\(Sonar <=> Bumper\)$/m, 'XorTerm');
    assert.deepEqual(r.losses, ['property `color` of feature `Battery` dropped: it has no UVL form']);
  });

  test('a GENOR min or max UVL cannot hold is refused by name (min -5, 1.5, max below min), not as "does not parse as UVL"', () => {
    const genor = (min: number | undefined, max: number | undefined) => readGlencoe(JSON.stringify({
      features: { r: { name: 'Root', type: 'GENOR', min, max }, a: { name: 'A' }, b: { name: 'B' } },
      tree: { id: 'r', children: [{ id: 'a' }, { id: 'b' }] },
    }, null, 2));
    const cases: [number | undefined, number | undefined, string][] = [
      [-5, 2, "feature 'r' (GENOR) has min -5: a group's min must be a whole number, 0 or more"],
      [-5, undefined, "feature 'r' (GENOR) has min -5: a group's min must be a whole number, 0 or more"],
      [1.5, 2, "feature 'r' (GENOR) has min 1.5: a group's min must be a whole number, 0 or more"],
      [0, 2.5, "feature 'r' (GENOR) has max 2.5: a group's max must be a whole number, or -1 for no limit"],
      [2, 1, "feature 'r' (GENOR) has max 1 below its min 2"],
    ];
    for (const [min, max, message] of cases) {
      const r = genor(min, max);
      assert.equal(r.model, undefined);
      assert.deepEqual(r.errors.map((e) => e.replace(/^Line \d+:\d+ - /, '')), [message], `min ${min}, max ${max}`);
      assert.match(r.errors[0]!, /^Line 3:4 - /, 'placed at the feature');
    }
    // Absent bounds and a negative max (no limit) still read.
    assert.match(genor(undefined, undefined).uvl!, /^ {8}\[0\.\.\*\]$/m);
    assert.match(genor(1, -1).uvl!, /^ {8}or$/m);
    assert.deepEqual(genor(1, 2).errors, []);
  });

  test('reads what the hub writes', () => {
    // One group per feature: Glencoe (and the hub's writer) has one group type per feature.
    const { model } = parseUvl('features\n    R\n        alternative\n            A\n            B\n                [2..3]\n                    C\n                    D\n                    E\n                    F\nconstraints\n    A => C | !D\n');
    const r = readGlencoe(toGlencoe(model));
    assert.deepEqual(r.errors, []);
    assert.equal(countModelConfigurations(r.model!), countModelConfigurations(model));
  });
});

describe('FeatureIDE writer', () => {
  const roundTrip = (uvl: string) => {
    const { model } = parseUvl(uvl);
    const written = toFeatureIde(model);
    const back = readFeatureIde(written.xml);
    assert.deepEqual(back.errors, []);
    return { model, written, back, original: countModelConfigurations(model), direct: countDirect(featureIdeCnf(written.xml)), converted: countModelConfigurations(back.model!) };
  };

  test('or and alternative groups map to or and alt; abstract, hidden, description and attributes carry over', () => {
    const r = roundTrip("features\n    R {abstract, description 'the root'}\n        or\n            A {cost 3, ratio 0.5, name 'x', on true}\n            B {hidden}\n        \nconstraints\n    A => B\n");
    assert.match(r.written.xml, /^<extendedFeatureModel>$/m);
    assert.match(r.written.xml, /<or abstract="true" mandatory="true" name="R">/);
    assert.match(r.written.xml, /<attribute name="cost" type="long" value="3"\/>/);
    assert.match(r.written.xml, /<attribute name="ratio" type="double" value="0.5"\/>/);
    assert.match(r.written.xml, /<feature hidden="true" name="B"\/>/);
    assert.match(r.written.xml, /<description>the root<\/description>/);
    assert.deepEqual(r.written.losses, []);
    assert.equal(r.direct, r.original);
    assert.equal(r.converted, r.original);
    assert.match(r.back.uvl!, /R \{abstract, description 'the root'\}/);
  });

  test('mixed groups get helper features, cardinality groups exact rules (subsets, then a counter)', () => {
    const members = Array.from({ length: 20 }, (_, i) => `            M${i}\n`).join('');
    const r = roundTrip(`features\n    R\n        mandatory\n            A\n        or\n            B\n            C\n        [2..3]\n            D\n            E\n            F\n            G\n        [0..1]\n            H\n            I\n        optional\n            S\n                [3..5]\n${members.replace(/^ {12}/gm, ' '.repeat(20))}`);
    assert.match(r.written.xml, /name="_group_R_1"/);
    assert.match(r.written.xml, /<atmost1>/);
    assert.match(r.written.xml, /name="_count_/, 'a counter for [3..5] over 20');
    assert.deepEqual(r.written.losses, []);
    assert.equal(r.direct, r.original);
    assert.equal(r.converted, r.original);
  });

  test('lists what FeatureIDE cannot hold', () => {
    const { model } = parseUvl('features\n    R\n        optional\n            Integer n cardinality [1..3] {tags [1, 2], nested {a 1}}\n            A\n            A\nconstraints\n    n > 2\n    A => R\n');
    const { losses, xml } = toFeatureIde(model);
    assert.deepEqual(losses, [
      'second feature `A` renamed to `A_2`, with a rule making them equal: FeatureIDE names are unique',
      'attribute `tags` of `n` dropped: FeatureIDE attributes hold a number, a boolean or a string, not a vector',
      'attribute `nested` of `n` dropped: FeatureIDE attributes hold a number, a boolean or a string, not a nested attribute list',
      'feature `n` of type Integer written as a Boolean feature: FeatureIDE features have no type',
      'feature cardinality of `n` dropped: FeatureIDE has no feature cardinalities (the feature is written once)',
      'constraint `n > 2` dropped: FeatureIDE constraints are Boolean (no arithmetic, aggregate or string constraints)',
    ]);
    assert.match(xml, /<eq>\n\t+<var>A<\/var>\n\t+<var>A_2<\/var>/);
  });

  test('an unresolved import is listed', () => {
    const { model } = parseUvl('imports\n    sub as s\nfeatures\n    R\n        optional\n            s.Root\n');
    assert.ok(toFeatureIde(model).losses[0]!.startsWith('import `sub` not resolved'));
  });

  test('the SXFM and Glencoe writers read back with their configurations', () => {
    const { model } = parseUvl('features\n    R\n        [1..2]\n            A\n            B\n            C\n        mandatory\n            D\nconstraints\n    A <=> !D | C\n');
    const original = countModelConfigurations(model);
    assert.equal(countModelConfigurations(readSxfm(toSplot(model)).model!), original);
    assert.equal(countDirect(sxfmCnf(toSplot(model))), original);
    // Glencoe has one group type per feature: R's [1..2] group and its mandatory D do not both fit.
    const single = parseUvl('features\n    R\n        [1..2]\n            A\n            B\n            C\n                mandatory\n                    D\nconstraints\n    A <=> !D | C\n').model;
    assert.equal(countDirect(glencoeCnf(toGlencoe(single))), countModelConfigurations(single));
  });
});

describe('bad files give errors with line and column', () => {
  test('malformed XML: the parser position', () => {
    const r = readFeatureIde('<featureModel>\n  <struct>\n    <feature name="A">\n  </struct>\n</featureModel>');
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]!, /^Line 4:\d+ - not well-formed XML: .*feature/);
    assert.equal(r.model, undefined);
  });
  test('XML with external entities is refused, internal entities are not expanded into a flood', () => {
    const external = readFeatureIde('<!DOCTYPE featureModel [<!ENTITY x SYSTEM "file:///etc/passwd">]><featureModel><struct><feature name="&x;"/></struct></featureModel>');
    assert.deepEqual(external.errors, ['Line 1:0 - XML not accepted: External entities are not supported']);
    let doctype = '<!DOCTYPE featureModel [<!ENTITY a0 "lol">';
    for (let i = 1; i < 12; i++) doctype += `<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`;
    const laughs = readFeatureIde(`${doctype}]><featureModel><struct><feature name="&a11;"/></struct></featureModel>`);
    assert.ok((laughs.uvl ?? laughs.errors.join('')).length < 1000);
  });
  test('FeatureIDE: an unknown feature in a rule, a missing struct, a duplicate name', () => {
    const unknown = readFeatureIde('<featureModel>\n<struct><feature name="A"/></struct>\n<constraints><rule>\n  <var>B</var></rule></constraints></featureModel>');
    assert.deepEqual(unknown.errors, ["Line 4:2 - constraint names 'B', which is not a feature of the model"]);
    assert.match(readFeatureIde('<featureModel/>').errors[0]!, /^Line 1:0 - no <struct> element/);
    assert.match(readFeatureIde('<featureModel><struct><and name="A">\n<feature name="A"/></and></struct></featureModel>').errors[0]!, /^Line 2:0 - feature 'A' is defined twice/);
    assert.match(readFeatureIde('<featureModel><struct><feature name="A"/></struct><constraints><rule><imp><var>A</var></imp></rule></constraints></featureModel>').errors[0]!, /<imp> needs 2 operands, found 1/);
  });
  test('SXFM: a bad tree line, a clause naming no feature; loose lines read by where they stand', () => {
    const head = '<feature_model name="x">\n<feature_tree>\n:r R (r)\n';
    assert.deepEqual(readSxfm(`${head}\t:x A (a)\n</feature_tree>\n</feature_model>`).errors, ["Line 4:1 - expected a tree line (:r, :m, :o, :g or :), found ':x A (a)'"]);
    assert.deepEqual(readSxfm(`${head}\t:o A (a)\n</feature_tree>\n<constraints>\nC1: a or ~zz\n</constraints>\n</feature_model>`).errors, ["Line 7:9 - clause names 'zz', which is not a feature id of the tree"]);
    // As published files have them: a member without :g is optional, a :m inside a group a member.
    const loose = `${head}\t: A (a)\n\t:g [1,1]\n\t\t:m B (b)\n\t\t: C (c)\n</feature_tree>\n</feature_model>`;
    const r = readSxfm(loose);
    assert.deepEqual(r.losses, [
      '`: A` (line 4) stands below a feature without a group (:g): read as an optional feature',
      '`:m B` (line 6) stands in a group: read as a group member (the group decides, not :m)',
    ]);
    assert.match(r.uvl!, /^ {8}optional\n {12}A\n {8}alternative\n {12}B\n {12}C$/m);
    assert.equal(countModelConfigurations(r.model!), countDirect(sxfmCnf(loose)));
    assert.deepEqual(readSxfm('<feature_model>\n<feature_tree>\n:r R\n</feature_tree>').errors, ["Line 1:0 - not well-formed XML: Unclosed tag 'feature_model'."]);
    for (const blank of ['', '  ', '\n\n']) {
      assert.deepEqual(readSxfm(blank).errors, ['Line 1:0 - not well-formed XML: Start tag expected.'], JSON.stringify(blank));
      assert.deepEqual(readFeatureIde(blank).errors, ['Line 1:0 - not well-formed XML: Start tag expected.'], JSON.stringify(blank));
    }
    assert.match(readSxfm('<feature_model>\n<feature_tree>\n:r R\n</feature_tre>\n</feature_model>').errors[0]!, /^Line 4:\d+ - not well-formed XML: .*feature_tree/);
  });
  test('Glencoe: invalid JSON, an unknown term, an unknown feature', () => {
    assert.match(readGlencoe('{\n  "tree": {"id": "R",}\n}').errors[0]!, /^Line 2:\d+ - not valid JSON/);
    const base = '{"features": {}, "tree": {"id": "R"},\n "constraints": {"c1": ';
    assert.deepEqual(readGlencoe(`${base}{"type": "MysteryTerm", "operands": []}}}`).errors, ["Line 2:17 - constraint 'c1': unknown term type 'MysteryTerm'"]);
    assert.deepEqual(readGlencoe(`${base}{"type": "FeatureTerm", "operands": ["Q"]}}}`).errors, ["Line 2:17 - constraint 'c1' names 'Q', which is not a feature of the tree"]);
  });
});

describe('readModelFile', () => {
  const fide = '<?xml version="1.0"?>\n<!-- x -->\n<featureModel><struct><feature name="A"/></struct></featureModel>';
  test('detects each format by extension and root element', () => {
    assert.equal(readModelFile('m.uvl', 'features\n    A\n').format, 'uvl');
    assert.equal(readModelFile('m.xml', fide).format, 'featureide');
    assert.equal(readModelFile('m.xml', fide.replace(/featureModel/g, 'extendedFeatureModel')).format, 'featureide');
    assert.equal(readModelFile('m.xml', fixture('phone.sxfm')).format, 'sxfm');
    assert.equal(readModelFile('M.SXFM', fixture('phone.sxfm')).format, 'sxfm');
    const json = readModelFile('m.json', new TextEncoder().encode(fixture('editor.glencoe.json')));
    assert.equal(json.format, 'glencoe');
    assert.deepEqual(json.errors, []);
    assert.match(json.uvl!, /^features\n {4}Robot/);
  });
  test('UVL passes through; its syntax errors are the errors', () => {
    const ok = readModelFile('m.uvl', 'features\n    A\n');
    assert.deepEqual([ok.uvl, ok.losses, ok.errors], ['features\n    A\n', [], []]);
    const bad = readModelFile('m.uvl', 'features\n    A\n    B\n');
    assert.equal(bad.uvl, undefined);
    assert.equal(bad.errors.length, 1);
  });
  test('refuses other files with a reason', () => {
    assert.match(readModelFile('m.xml', '<html/>').errors[0]!, /this one's root is <html>/);
    // The line is the root's own, after a declaration, a comment or a doctype (section 7: the error with its line).
    assert.match(readModelFile('m.xml', '<?xml version="1.0"?>\n<!-- a\ncomment -->\n  <root/>\n').errors[0]!, /^Line 4:2 - .*this one's root is <root>/);
    assert.match(readModelFile('m.txt', 'x').errors[0]!, /unknown model format '\.txt'/);
    assert.match(readModelFile('m.json', new Uint8Array([0, 1, 2])).errors[0]!, /not text/);
  });
  test('Latin-1 XML, as old SPLOT files are', () => {
    const text = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<feature_model name="x"><feature_tree>\n:r Caf\u00e9 (r)\n</feature_tree></feature_model>';
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    assert.match(readModelFile('m.xml', bytes).uvl!, /Café/);
  });
});
