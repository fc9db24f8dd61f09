// Golden drawings: the diagrams of a few corpus models under several option sets (collapsed and
// full, anomalies coloured, a subtree with toggled features, one level) must stay byte for byte
// what they were when this table was written (from the drawing code before it was split into
// layout, nodes, edges and legend). Hashes rather than the SVG text keep the table small; a
// deliberate change of the drawing writes the new figures: GOLDEN_PRINT=1 prints them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseUvl, type Feature, type UvlModel } from '../../../packages/uvl/src/index.ts';
import { corpusSkipReason, findCorpus } from '../../../packages/uvl/src/corpus.support.ts';
import { renderDiagram, type DiagramOptions } from './diagram.ts';

/** Model path → option set → "sha256 length" of the SVG. */
const GOLDEN: Record<string, Record<string, string>> = {
  'real/Feature_Models/Operating_Systems/Linux/Evolution/Linux_v1.uvl': {
    default: '41ec5ead7708f246bf5a24c979c9c3c8a2e4cac49f7567a625550a7693f48827 340',
  },
  'real/test_resources/parsing/language_level/all.uvl': {
    default: '67d43585ccef9a1de145c1b5b6aaeaeedfada68da1a09b6501c30485532a78c8 4212',
    full: '6e3416742268e8c3840eb5e2938fa1354982059ffe9f903dc7662546d77e9cb5 4329',
    anomalies: 'e402c36a68312390e8a5de7ddeb4f00f9b42ea09ece758077e2c1e231a678090 4142',
    subtree: '5778f11ba677e27e7cd6a721bfece7cf22881c3cf89ec3c6b785bb49db011f23 3709',
    depth1: '78dcf156549628342479bd38b8bcfd32fe81ef3b90c290b8add86ff96771b5ba 3368',
  },
  'real/test_resources/parsing/complex/bike.uvl': {
    default: '858dd8ac6b8a3f9e59093be5fa3bbcb0d6667fdec1f78f51a74e23193ed11a91 5635',
    full: '6056f156af83e132fd598664d151e5bd1dd4caaef17d68227e5f3b9304aee2ab 5769',
    anomalies: '58acb0775e3c8cfab3dc81a52ef494b9299aad358875e8d09279f16516fd05ad 5626',
    subtree: 'f2a2c7b5014a2eedd78d009189e6ed24c34a069d5b2462a2103baea6e5149615 3473',
    depth1: '327e3870b53100ef6176edd41356e24dfcd7d4ec0f89478518a00f938127b254 4821',
  },
  'real/test_resources/parsing/boolean_level/cardinality.uvl': {
    default: 'f9f1114d2fd17cf282a7fc82aed4287b9569011c799849b6497bc8e502810da5 3380',
    full: '26c60e380fb2f69d91587d6349cb56375c2fb35072f2d6976c9256ecfe483d53 3482',
    anomalies: 'fea3a28703ff383e33f689594a5e28024efc18bfc3df1e9570d7c18ff9d7000b 3280',
    depth1: '53549d26a3a5fa5e702b79ea882bdf88d9762afc2a9421413e64ca447c082360 3410',
  },
  'parser-tests/complex/Horcas2026_Pizza.uvl': {
    default: '0fcb9b7bd24259b07d99306096b31e0cc1faf10db322dc83469d59eab941f327 6961',
    full: '1cceb1a4b848eb59e1590a51a49b73659f1b3970f26e49e8dfdea51b461ce6bf 7110',
    anomalies: '24fe19148b3bd75dc42a22eb91a1714def0dafe3604a4e17b3e105002469f2fa 7002',
    subtree: '76101306a68b363d1b7510925e6865b14f204a98ae46a2ed327894e17cf7d21a 3506',
    depth1: '470cdba67674a28a26780d87528ff4a5a390f708890894828507ec78b9cfe998 4795',
  },
  'real/Decision_Models/DOPLER/dm_ASEJ1.csv.uvl': {
    default: '9a62a1c95f5605f03cc37dc3e9ea6372ac908396c19c52409a16d1ab6731ecf6 30463',
    full: '6ede092e256a5907b6639c775457dfc98bbbe60faa6e5bd787f955b6c2ea4cf7 30599',
    anomalies: '2bd5b54a9cd2d867384d02ec6a431d8d836e53fd9a3a0ec70fca561d0bd4381a 31246',
    subtree: '2d20d2b42b730c448c764437a450a1c3b47291a442041357cda3dcaf1974cece 2882',
    depth1: '03b061400aa8ce6fd4b54547b760c9cf8001d7334a1cd199929baee4a70c0c19 3860',
  },
  'real/Feature_Models/Operating_Systems/BusyBox/Evolution/2008-01-02_19-55-04.uvl': {
    default: '63d2b68c7109d3718041fe2590b9f343102bc59895354d9af867ed2203cd99a0 175027',
    full: 'f0453d8e88e4141b0f56ffd9452ef0eeca0594e7679818a2f2cd0e477ac7d977 175054',
    anomalies: '170ac9fff1e6b52aedfb46a94f58f636438a77a96f9394609346fa5d5f1eb6d5 179014',
    depth1: 'e1e3ebeda8460daba89bce96e63bcd032ad4676954d2a1d9dea4a767ef77d2d4 174982',
  },
  'real/Feature_Models/Operating_Systems/KConfig/uClinux-distribution.uvl': {
    default: 'ecbb4b71f54dd02a06c749c79a309f8b3602ad0ffcd25d70123c69b8d22ff9f7 643693',
    full: 'c1fe8d8400474855130c2e98684c94ac0321813919c88766f4b3a5781f86f23d 589478',
    anomalies: '6a6a3fe78aa7b659f37d3952c7a3448c510a17a63fb6a1d3edb204799b449789 657971',
    subtree: '2c26fe85ef1bc8d28b18ba3e87efd692c14d3deb36d2bccc716b8ea8e9b0f88f 3348',
    depth1: '09b6c1ab66d1e39aa7536da164b4b9800fe9dfda518a5a18adbfa91c3238b3ed 203972',
  },
};

function preorder(root: Feature): Feature[] {
  const out: Feature[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const f = stack.pop()!;
    out.push(f);
    for (let g = f.groups.length - 1; g >= 0; g--) for (let c = f.groups[g]!.children.length - 1; c >= 0; c--) stack.push(f.groups[g]!.children[c]!);
  }
  return out;
}

/** The option sets, derived from the model's own names so that every branch of the drawing is reached. */
function optionSets(model: UvlModel): [string, DiagramOptions][] {
  const sets: [string, DiagramOptions][] = [['default', {}]];
  if (!model.root) return sets;
  const all = preorder(model.root);
  const names = all.map((f) => f.name);
  const every = (k: number) => names.filter((_, i) => i % k === 0);
  sets.push(['full', { depth: 1000, title: 'Feature diagram of x.uvl' }]);
  sets.push(['anomalies', { anomalies: { core: every(3), dead: every(5), falseOptional: every(7) }, linkSuffix: '#diagram' }]);
  const inner = all.filter((f) => f !== model.root && f.groups.length > 0);
  const sub = inner[Math.floor(inner.length / 2)];
  if (sub) sets.push(['subtree', { root: sub.name, depth: 2, open: every(4).slice(0, 20), close: every(6).slice(0, 20), linkSuffix: '#d' }]);
  sets.push(['depth1', { depth: 1, anomalies: { core: [], dead: [], falseOptional: [] } }]);
  return sets;
}

const corpus = findCorpus();

describe('feature diagram golden drawings', { skip: corpus ? false : corpusSkipReason }, () => {
  for (const [path, expected] of Object.entries(GOLDEN)) {
    it(`draws ${path} as before`, () => {
      const { model } = parseUvl(corpus!.read(path));
      const drawn: Record<string, string> = {};
      for (const [name, options] of optionSets(model)) {
        const svg = renderDiagram(model, options);
        drawn[name] = `${createHash('sha256').update(svg).digest('hex')} ${svg.length}`;
      }
      if (process.env.GOLDEN_PRINT) console.log(JSON.stringify({ [path]: drawn }, null, 2));
      assert.deepEqual(drawn, expected);
    });
  }
});
