import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { histogramSvg, probabilityBins } from './histogram.ts';

describe('the commonality histogram', () => {
  it('puts dead and core features apart and the rest in tenths', () => {
    const bins = probabilityBins([0, 1, 1, 0.5, 0.05, 0.99, 0.1]);
    assert.deepEqual(bins.map((b) => b.count), [1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2]);
  });

  it('draws bars with their counts, or a message while not known', () => {
    const svg = histogramSvg([1, 1, 0.5]);
    assert.match(svg, /^<svg [^>]*role="img"/);
    assert.match(svg, /<desc id="h-desc">[^<]*, 1: 2<\/desc>/);
    assert.equal((svg.match(/<rect /g) ?? []).length, 12);
    assert.match(histogramSvg(null), /Being computed/);
  });
});
