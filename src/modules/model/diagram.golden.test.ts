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
    default: 'acd3d2e3acc2c21bf90985f9043c6533981d903a9275ead714ad2f825650daff 4451',
    full: '39c1c08e978480b24712f6be6d9fe32d46fb22383c340ae7c33f4ce2460ecd89 4490',
    anomalies: '6d7a64c09634727e66deb674dc60e2042aa4c0fa49e2d0930ee89d115907f2be 4376',
    subtree: 'cba84ea546cb14fed8c2a2602e174228228e93bddd33f19f5f020c42b5805ff2 4043',
    depth1: '116d9f66320ce172db07182d9e7f78c7165a66e9b09cccdf558f3698490117f1 3805',
    fit: 'e7014aa9cb173b20e5ee9f2e64cedd45c1cfba8bd9f53f818ef86609853b88c7 4467',
    phone: '829142ab82b9e44a16c0fbd3abea08a8c19a7a20f76555362ce8836be16f4244 4375',
  },
  'real/test_resources/parsing/complex/bike.uvl': {
    default: '02b5704d627e2ac348ebcb8afcb5cf235a9630a16af8862fcf2037d1a4026fe5 5875',
    full: 'c6123b3a7211ab0bb85e17db41132127f9a774a83d3509a5125f8458f9edbf24 5929',
    anomalies: '1d44bdb0ebe95a07f60431abba1f1a05ae2737e4027f3e807b3344033841d274 5865',
    subtree: '193481417231a8876a73cbea7f9018d4321865ec21e5fe7111e3eba518f36f98 3807',
    depth1: 'dd00767554a6a10b9b9edad65605fe573e4acd230bdc88061acf3936e4228e9f 5436',
    fit: '8e57204f64b16a2a01fc5b1bcd8a44f3531ad66c23f2db8a74e02c216b0bc497 5899',
    phone: 'cece96b8a73c3fcd12182f76bcc2a6e72898c093b6943577b9160c5eecb2bf0a 5743',
  },
  'real/test_resources/parsing/boolean_level/cardinality.uvl': {
    default: '8f6c5c40c4bda684393d7a4f83fd602b49a5d7af1ea503cc8d21ab87f77f261a 3621',
    full: '6490c120b4004d4fb8bf10806b4b12273792bfda8d314707bbbdf83cbd8e74b7 3645',
    anomalies: '0e71aaf51d414ab04a4c789ee3c4cfd0953b1d473cbbff6fc77ea007264c03d5 3518',
    depth1: '04eb103f8e078ada18e4e180706d2c3e43b7b822aee18a7cb28a20521d586e6d 3500',
    fit: 'c9d06dcd6d42bd046efce5c2f1eacea033ed3c1ba3fb90f9901401d5e3e84f70 3629',
    phone: 'c33b459dec5c0363ba897633e0f305fd6d2603e0eca627ab39ee6839bcb228c2 3589',
  },
  'parser-tests/complex/Horcas2026_Pizza.uvl': {
    default: '473944eceb50777ab269f92986d2d7fa909444403fa9187e5ffa493fc3ed3a1c 7201',
    full: '74e448e737e79d8150db9b9618d0ff0e419d0b3ccd4595375d94fb5d243aa6e1 7270',
    anomalies: 'a514b165ca0ca70e447f4acedd4a958dad79155cb903e5d3f83529b37a9736fc 7241',
    subtree: '723cfa449c56ff2c7e2c6e7c9397967bf97e2d5dc3144d481613f6a60daad040 3840',
    depth1: '3a6f66c14d050eccdd0392b036947d6ded267c3a6bb745683a84a9d291cbfa9f 5591',
    fit: '58f70103b02fa236c6b38345118cd4813d384d85145e7485f57c386f121731ee 7233',
    phone: 'f57117b985c1b23a204ab48de5a4cfa61b9af72c320f866a0082d3c3b8dcb864 7067',
  },
  'real/Decision_Models/DOPLER/dm_ASEJ1.csv.uvl': {
    default: 'f4620137a32e26b11ea8a296a97466af2c07cc3689abcea431eb19912ac6e6c0 30703',
    full: '7edac133cd6babee0707c6cee2cb633d45bc0bb54179eb279ae5f58d8a851ca7 30757',
    anomalies: 'b82d7907410debe360d51af23f161f6e6a28ec3418e2ecc94debff2d515fe075 31483',
    subtree: 'b62108a0e9ab467867e02a4ff8334411ffafce93ff9e8857725b755dabcc8c07 3394',
    depth1: '1ef739157b1b2afb122784565c67c6b043a155eced3cce8b654a82345a7932c0 4474',
    fit: 'f4a9aa75ecae99f4d24d6af40ca93c394f8c1df1f05ff9415c8d7555c4a908b5 10059',
    phone: '944d08c2d5666f1ddb9025fb421a96242790cabba1e9431ee7ddbdac02b17557 7846',
  },
  'real/Feature_Models/Operating_Systems/BusyBox/Evolution/2008-01-02_19-55-04.uvl': {
    default: '3c48daefc8b3d7949122bb62fb90e485d9a76e94323534918591513e1a462a90 175187',
    full: 'a259eddc44d0efc4d052bb15eaed85fb8e476b36d2d93cc576f7bd40dbf42bf3 175211',
    anomalies: '11903038dc1000f731caa2bbc5fa06562eca6b6c04acae2a9e9a4e6c495f131e 179093',
    depth1: '67d9ad6e2d3557fed69f680a0c1aa4a2613cca66e8f62e34abb2e3e94c1409de 175062',
    fit: 'ec9ed744a988d0d7005b900c9caa317bf02d8ac119cade9135288fdecbbf3062 15656',
    phone: '5ee56d3aac2f8ebdf8e9ea2bbd997a290dcac7a865a4b732b8a11a8de3144454 166712',
  },
  'real/Feature_Models/Operating_Systems/KConfig/uClinux-distribution.uvl': {
    default: '7733364ffbe3a416ab4aaa53eb1f9bf5bd97c1aea250ce0e0e89b9a5b61927c9 647745',
    full: '7dc784b39920365d001d148979fce556a3e58adccdc7e2542975fdbf97e466fa 589635',
    anomalies: '0143db9b8914eece098453d5845ebd8787b2488804d1be00a237db0c5425061b 661986',
    subtree: 'cbd0849383b816ebeab498480176d6dc15159eb4a15e3f32f4ac9165590a8cad 3682',
    depth1: '81eaeed336aa662d4765e3a192027a8a3729840c984461f59f350be330dd75b9 215876',
    fit: '69a3b6a2cd03698bbcdcc5157ac47968e157fd819292d3166558da2184b6cfdc 12150',
    phone: 'cd3f6c3f6d8a133c3bc9194dda7597e4068bc982e672576aabfba89c1407b6b7 204943',
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
  // Fitted to a desktop page's frame and a phone's (issue 37, item 4): folds, wrapped runs, shortened labels.
  sets.push(['fit', { fit: { width: 680, height: 600 }, linkSuffix: '#diagram' }]);
  sets.push(['phone', { fit: { width: 320, height: 560 }, open: every(9).slice(0, 3) }]);
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
