// The model page's form of the probabilities (issue 37, item 1): the stored summary names every
// feature twice (`probability` and `shown`: 1.4 MB for automotive2_4, 250 KB compressed); the page
// has the names from its tree already. So: the probabilities in the order of the names sorted
// (by UTF-16 code units, JavaScript's default sort, which the page repeats), rounded to what the
// page shows (six decimals: it shows one decimal of a percentage), and the engine's texts only
// where the page shows them instead of a percentage (powers of ten, `< 0.001`, `> 0.999`).
//
// Made once per model and kept as the bytes sent (configurator.cache.ts): about 20 ms of parsing
// on the event loop for automotive2_4, once, against a quarter of a megabyte for every visit.

interface Summary { probability: Record<string, number>; shown?: Record<string, string>; bins?: number[] }

/** Texts the page shows as a percentage instead: 0.ddd, 0 and 1. */
const PLAIN_TEXT = /^(0\.\d{3}|0|1)$/;

export function probabilitiesByName(summaryJson: string): string {
  const summary = JSON.parse(summaryJson) as Summary;
  const names = Object.keys(summary.probability).sort();
  const shown: Record<string, string> = {};
  for (const [name, text] of Object.entries(summary.shown ?? {})) if (!PLAIN_TEXT.test(text)) shown[name] = text;
  const probability = names.map((name) => Math.round(summary.probability[name]! * 1e6) / 1e6);
  return JSON.stringify({ order: 'name', probability, shown, bins: summary.bins ?? null });
}
