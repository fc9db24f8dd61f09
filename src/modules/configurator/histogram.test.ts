import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { binsOfSummary, histogramSvg, probabilityBins } from './histogram.ts';

describe('the commonality histogram', () => {
  it('puts dead and core features apart and the rest in tenths', () => {
    const bins = probabilityBins([0, 1, 1, 0.5, 0.05, 0.99, 0.1]);
    assert.deepEqual(bins.map((b) => b.count), [1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2]);
  });

  it('draws bars with their counts, or a message while not known', () => {
    const svg = histogramSvg(probabilityBins([1, 1, 0.5]));
    assert.match(svg, /^<svg [^>]*role="img"/);
    assert.match(svg, /<desc id="h-desc">[^<]*, 1: 2<\/desc>/);
    assert.equal((svg.match(/<rect /g) ?? []).length, 12);
    assert.match(histogramSvg(null), /Being computed/);
  });

  it("takes the engine's bars from a summary, where a variant feature's double of 1 is not core", () => {
    const bins = [185, 2, 0, 0, 0, 0, 0, 0, 0, 0, 48, 3];
    assert.deepEqual(binsOfSummary({ probability: { A: 1 }, shown: { A: '> 0.999' }, bins }).map((b) => b.count), bins);
    // An older summary (name -> double) still draws.
    assert.deepEqual(binsOfSummary({ A: 1, B: 0, C: 0.5 }).map((b) => b.count), [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });
});
