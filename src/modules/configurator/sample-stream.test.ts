// The packed sample (packages/analysis sample/compact.ts) read back through sampleText however the
// store cuts its bytes: the JSON is JSON.stringify's, the CSV sampleCsv's (no database, no worker).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { packSample, rowsOfNames, sampleCsv, unpackSampleJson } from '../../../packages/analysis/src/index.ts';
import { sampleText } from './sample-stream.ts';

const FEATURES = ['A', 'B "quoted"', 'Sun, Roof', 'Zürich', 'back\\slash', 'line\nbreak', ...Array.from({ length: 20 }, (_, i) => `F${String(i).padStart(2, '0')}`)];

/** A t-wise-shaped answer: `configurations` between other members, as twiseSample's with engine_version after it. */
function answerOf(configurations: string[][]) {
  return { kind: 'twise', t: 2, seed: 1, size: configurations.length, complete: true, configurations, features: FEATURES, timings_ms: { total: 3 }, engine_version: '1.0.0' };
}

async function text(bytes: Uint8Array, chunk: number, format: 'json' | 'csv'): Promise<string> {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += chunk) yield Buffer.from(bytes.subarray(at, at + chunk));
  }
  let out = '';
  for await (const part of sampleText(pieces(), format)) out += part;
  return out;
}

describe('a packed sample read back as a stream', () => {
  const configurations = [
    FEATURES.filter((_, i) => i % 2 === 0), FEATURES.filter((_, i) => i % 3 === 1), [], FEATURES.slice(), ['Zürich'],
  ];

  for (const chunk of [1, 7, 64, 1 << 16]) {
    it(`gives JSON.stringify's bytes and sampleCsv's CSV with the bytes cut every ${chunk}`, async () => {
      const answer = answerOf(configurations);
      const packed = packSample(answer, FEATURES, rowsOfNames(FEATURES, configurations)!);
      assert.equal(await text(packed, chunk, 'json'), JSON.stringify(answer));
      assert.equal(await text(packed, chunk, 'csv'), sampleCsv(answer));
      assert.equal(unpackSampleJson(packed), JSON.stringify(answer));
    });
  }

  it('holds no configuration and no feature as JSON.stringify writes them', async () => {
    const empty = answerOf([]);
    assert.equal(await text(packSample(empty, FEATURES, rowsOfNames(FEATURES, [])!), 5, 'json'), JSON.stringify(empty));
    const none = { kind: 'uniform', features: [], configurations: [[], []] };
    const packed = packSample(none, [], rowsOfNames([], none.configurations)!);
    assert.equal(await text(packed, 3, 'json'), JSON.stringify(none));
    assert.equal(await text(packed, 3, 'csv'), sampleCsv(none));
  });

  it('refuses to pack names out of the feature order (the rows could not give them back), and a short object', async () => {
    assert.equal(rowsOfNames(FEATURES, [['B "quoted"', 'A']]), undefined);
    assert.equal(rowsOfNames(FEATURES, [['Unknown']]), undefined);
    const packed = packSample(answerOf(configurations), FEATURES, rowsOfNames(FEATURES, configurations)!);
    await assert.rejects(text(packed.subarray(0, packed.length - 2), 64, 'json'), /shorter than its header says/);
  });
});
