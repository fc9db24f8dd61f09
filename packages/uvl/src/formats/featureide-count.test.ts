// The FeatureIDE feature count from bytes (featureide-count.ts) against the reader's model: the
// hub refuses a file over MAX_FEATURES by this count before building the reader's tree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { countModel, featureIdeFeatureCount, readFeatureIde } from '../index.ts';

const fixtureBytes = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe('featureIdeFeatureCount', () => {
  for (const file of ['car.featureide.xml', 'shop.extended.xml']) {
    test(`${file}: the count from bytes is the reader's feature count`, () => {
      const bytes = fixtureBytes(file);
      const read = readFeatureIde(bytes.toString('utf8'));
      assert.ok(read.model, read.errors.join('\n'));
      assert.equal(featureIdeFeatureCount(bytes), countModel(read.model).features);
    });
  }

  test('skips comments, CDATA and the featureOrder section; <featureModel> and <feature_x> are no features', () => {
    const xml = `<?xml version="1.0"?><featureModel><!-- <feature name="No"/> -->
      <struct><and name="Root"><description><![CDATA[<feature name="No"/>]]></description>
        <feature name="A"/><or name="B"><feature
          name="C"/><feature_x/></or><alt name="D"><feature name="E"></feature></alt></and></struct>
      <featureOrder userDefined="true"><feature name="A"/><feature name="C"/></featureOrder></featureModel>`;
    assert.equal(featureIdeFeatureCount(new TextEncoder().encode(xml)), 6);
  });

  test('a file without <struct> (SPLOT SXFM) counts 0; bytes in the middle of a larger buffer are read alone', () => {
    assert.equal(featureIdeFeatureCount(fixtureBytes('phone.sxfm')), 0);
    const inner = new TextEncoder().encode('<struct><feature name="A"/></struct>');
    const outer = new Uint8Array(inner.length + 20);
    outer.set(new TextEncoder().encode('<struct><and n="x">'), 0);
    outer.set(inner, 20);
    assert.equal(featureIdeFeatureCount(outer.subarray(20)), 1);
  });
});
