// The distribution of the features' probabilities (commonality / configurations) as a small SVG
// drawn on the server, for the model page's fact label: core (1) and dead (0) features apart,
// the rest in tenths. Bars carry their counts as text, and the SVG has a title and description.

const WIDTH = 300;
const HEIGHT = 140;
const PLOT_TOP = 18;
const PLOT_BOTTOM = 110;

interface Bin { label: string; count: number }

const LABELS = ['0', '.0', '.1', '.2', '.3', '.4', '.5', '.6', '.7', '.8', '.9', '1'];

/**
 * Bars from doubles, for summaries stored before the engine gave its bars (engine 1.1.0): a
 * variant feature whose double is 0 or 1 lands in an end bar there.
 */
export function probabilityBins(probabilities: number[]): Bin[] {
  const bins: Bin[] = [{ label: '0', count: 0 }];
  // `.3`: from 0.3 up to 0.4 (0.0 itself is the dead bin).
  for (let i = 0; i < 10; i++) bins.push({ label: `.${i}`, count: 0 });
  bins.push({ label: '1', count: 0 });
  for (const p of probabilities) {
    if (p <= 0) bins[0]!.count++;
    else if (p >= 1) bins[11]!.count++;
    else bins[1 + Math.min(9, Math.floor(p * 10))]!.count++;
  }
  return bins;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The bars of a stored summary: the engine's, decided on the exact counts (the end bars hold
 * exactly the dead and core features), else from an older summary's doubles.
 */
export function binsOfSummary(summary: unknown): Bin[] {
  const stored = summary as { bins?: unknown };
  if (Array.isArray(stored.bins) && stored.bins.length === LABELS.length) return LABELS.map((label, i) => ({ label, count: Number((stored.bins as unknown[])[i]) }));
  return probabilityBins(Object.values(summary as Record<string, number>));
}

/** The histogram; `message` instead of bars while the commonality is not known. */
export function histogramSvg(bins: Bin[] | null, message = 'Being computed…'): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="h-title h-desc" font-family="sans-serif" font-size="10">`;
  if (bins === null) {
    return `${head}<title id="h-title">Distribution of feature probabilities</title><desc id="h-desc">${escape(message)}</desc><text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" fill="#495057">${escape(message)}</text></svg>`;
  }
  const max = Math.max(1, ...bins.map((b) => b.count));
  const step = WIDTH / bins.length;
  const parts: string[] = [];
  bins.forEach((b, i) => {
    const h = Math.round(((PLOT_BOTTOM - PLOT_TOP) * b.count) / max);
    const x = Math.round(i * step + 2);
    const colour = i === 0 ? '#b02a37' : i === bins.length - 1 ? '#146c43' : '#0d6efd';
    parts.push(`<rect x="${x}" y="${PLOT_BOTTOM - h}" width="${Math.round(step - 4)}" height="${h}" fill="${colour}"/>`);
    parts.push(`<text x="${x + (step - 4) / 2}" y="${PLOT_BOTTOM - h - 3}" text-anchor="middle" fill="#212529">${b.count}</text>`);
    parts.push(`<text x="${x + (step - 4) / 2}" y="${PLOT_BOTTOM + 12}" text-anchor="middle" fill="#212529">${escape(b.label)}</text>`);
  });
  const summary = escape(bins.map((b) => `${b.label}: ${b.count}`).join(', '));
  return `${head}<title id="h-title">Distribution of feature probabilities</title><desc id="h-desc">Features per probability of being in a configuration (0: dead, 1: core, the tenths between: the others): ${summary}</desc>`
    + `<line x1="0" y1="${PLOT_BOTTOM}" x2="${WIDTH}" y2="${PLOT_BOTTOM}" stroke="#6c757d"/>${parts.join('')}`
    + `<text x="${WIDTH / 2}" y="${HEIGHT - 4}" text-anchor="middle" fill="#495057">probability of a feature in a configuration</text></svg>`;
}
