import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fiveNumbers, histogram, statisticsCsv, buildStatistics } from './statistics.figures.ts';
import { histogramSvg } from './statistics.plots.ts';

/** The same quartiles from the expanded, sorted list of values (linear interpolation between ranks). */
function quantileOfList(sorted: number[], p: number): number {
  const position = p * (sorted.length - 1);
  const low = sorted[Math.floor(position)]!;
  return low + (sorted[Math.ceil(position)]! - low) * (position - Math.floor(position));
}

function countsOf(values: number[]) {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => a.value - b.value);
}

test('five numbers from grouped counts equal those of the expanded list', () => {
  let seed = 7;
  const draw = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 200; round++) {
    const values = Array.from({ length: 1 + draw(40) }, () => draw(1 + draw(300)));
    const sorted = [...values].sort((a, b) => a - b);
    assert.deepEqual(fiveNumbers(countsOf(values)), {
      min: sorted[0], q1: quantileOfList(sorted, 0.25), median: quantileOfList(sorted, 0.5), q3: quantileOfList(sorted, 0.75), max: sorted[sorted.length - 1],
    });
  }
  assert.deepEqual(fiveNumbers([]), { min: null, q1: null, median: null, q3: null, max: null });
  assert.deepEqual(fiveNumbers(countsOf([1, 2, 3, 4])), { min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4 });
});

test('histogram bins have a round width, cover every value and keep every count', () => {
  assert.deepEqual(histogram(countsOf([3, 3, 5])), [{ from: 3, to: 3, count: 2 }, { from: 4, to: 4, count: 0 }, { from: 5, to: 5, count: 1 }]);
  const bins = histogram(countsOf([1, 17, 250, 999, 1000]));
  assert.equal(bins[0]!.to - bins[0]!.from + 1, 50);
  assert.ok(bins.length <= 21);
  assert.equal(bins.reduce((s, b) => s + b.count, 0), 5);
  assert.equal(bins.find((b) => b.from <= 250 && 250 <= b.to)!.count, 1);
  assert.deepEqual(histogram([]), []);
});

test('the CSV quotes what needs quoting and the plot says its figures', () => {
  const stats = buildStatistics({ datasets: 1, views: 0, downloads: 0 }, {
    models: 1, analysed: 1, features: [{ value: 4, count: 1 }], constraints: [], depth: [], configurationDigits: [],
    languageLevels: { 'bool,"ean"': 1 }, withDead: 0, void: 0,
  }, [], new Date('2026-01-01T00:00:00Z'));
  assert.ok(statisticsCsv(stats).includes('language_levels,"bool,""ean""",1\r\n'));
  assert.match(histogramSvg('Features', stats.histograms.features, stats.features), /aria-label="Features: minimum 4, first quartile 4, median 4, third quartile 4, maximum 4"/);
  assert.match(histogramSvg('Depth', [], stats.depth), /No analysed models yet/);
});
