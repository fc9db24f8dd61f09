// Plots drawn by the server as SVG (extensions section 8): a histogram with the box plot of the
// same values above it, and a bar chart of monthly counts. The SVG scales to its container (a
// viewBox and no fixed size), so a phone shows the whole plot; every plot is an image with a text
// label, and the page puts the same figures in a table beside it.
import type { FiveNumbers, HistogramBin } from './statistics.figures.ts';

const WIDTH = 600;
const HEIGHT = 260;
const LEFT = 56;
const RIGHT = 16;
const TOP = 56;
const BOTTOM = 40;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
/** Bootstrap's primary blue and body grey: enough contrast on white for the lines and labels. */
const BAR = '#0d6efd';
const INK = '#212529';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const round = (n: number) => Math.round(n * 10) / 10;
const formatNumber = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en') : n.toLocaleString('en', { maximumFractionDigits: 2 }));

function frame(label: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(label)}" class="stat-plot" font-family="system-ui, sans-serif" font-size="13"><title>${escapeXml(label)}</title>${body}</svg>`;
}

/** The count axis: a baseline, the top count and a middle tick. */
function countAxis(maxCount: number): string {
  const y = (count: number) => round(TOP + PLOT_HEIGHT - (count / maxCount) * PLOT_HEIGHT);
  const ticks = [0, Math.round(maxCount / 2), maxCount].filter((v, i, all) => all.indexOf(v) === i);
  return ticks.map((t) => `<line x1="${LEFT - 4}" x2="${LEFT + PLOT_WIDTH}" y1="${y(t)}" y2="${y(t)}" stroke="#dee2e6"/>`
    + `<text x="${LEFT - 8}" y="${y(t) + 4}" text-anchor="end" fill="${INK}">${formatNumber(t)}</text>`).join('');
}

/** A histogram of integer bins, with the box plot of the five numbers drawn on the same axis above it. */
export function histogramSvg(label: string, bins: HistogramBin[], summary: FiveNumbers): string {
  if (bins.length === 0) return frame(`${label}: no analysed models yet`, `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" fill="${INK}">No analysed models yet</text>`);
  const start = bins[0]!.from;
  const end = bins[bins.length - 1]!.to + 1;
  const x = (value: number) => round(LEFT + ((value - start) / (end - start)) * PLOT_WIDTH);
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const y = (count: number) => round(TOP + PLOT_HEIGHT - (count / maxCount) * PLOT_HEIGHT);
  let body = countAxis(maxCount);
  for (const bin of bins) {
    const left = x(bin.from);
    const width = Math.max(1, round(x(bin.to + 1) - left - 1));
    const range = bin.from === bin.to ? `${bin.from}` : `${bin.from} to ${bin.to}`;
    body += `<rect x="${left}" y="${y(bin.count)}" width="${width}" height="${round(TOP + PLOT_HEIGHT - y(bin.count))}" fill="${BAR}"><title>${range}: ${bin.count}</title></rect>`;
  }
  // Values sit at the middle of their unit-wide bin slot.
  const at = (value: number) => x(value + 0.5);
  const axisY = TOP + PLOT_HEIGHT;
  body += `<line x1="${LEFT}" x2="${LEFT + PLOT_WIDTH}" y1="${axisY}" y2="${axisY}" stroke="${INK}"/>`;
  body += `<text x="${LEFT}" y="${axisY + 18}" fill="${INK}">${formatNumber(start)}</text><text x="${LEFT + PLOT_WIDTH}" y="${axisY + 18}" text-anchor="end" fill="${INK}">${formatNumber(end - 1)}</text>`;
  if (summary.min !== null) {
    const { min, q1, median, q3, max } = summary as Record<keyof FiveNumbers, number>;
    const mid = 28;
    body += `<g stroke="${INK}" stroke-width="1.5"><line x1="${at(min)}" x2="${at(q1)}" y1="${mid}" y2="${mid}"/><line x1="${at(q3)}" x2="${at(max)}" y1="${mid}" y2="${mid}"/>`
      + `<line x1="${at(min)}" x2="${at(min)}" y1="${mid - 8}" y2="${mid + 8}"/><line x1="${at(max)}" x2="${at(max)}" y1="${mid - 8}" y2="${mid + 8}"/>`
      + `<rect x="${at(q1)}" y="${mid - 12}" width="${Math.max(1, round(at(q3) - at(q1)))}" height="24" fill="#e7f1ff"/>`
      + `<line x1="${at(median)}" x2="${at(median)}" y1="${mid - 12}" y2="${mid + 12}" stroke-width="3"/></g>`;
  }
  const described = summary.min === null ? label
    : `${label}: minimum ${formatNumber(summary.min)}, first quartile ${formatNumber(summary.q1!)}, median ${formatNumber(summary.median!)}, third quartile ${formatNumber(summary.q3!)}, maximum ${formatNumber(summary.max!)}`;
  return frame(described, body);
}

/** Bars of counts per label (months), labels thinned to stay legible at any width. */
export function barChartSvg(label: string, entries: { label: string; value: number }[]): string {
  if (entries.length === 0) return frame(`${label}: nothing yet`, `<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" fill="${INK}">Nothing yet</text>`);
  const maxCount = Math.max(1, ...entries.map((e) => e.value));
  const slot = PLOT_WIDTH / entries.length;
  const y = (count: number) => round(TOP + PLOT_HEIGHT - (count / maxCount) * PLOT_HEIGHT);
  const every = Math.ceil(entries.length / 6);
  let body = countAxis(maxCount);
  entries.forEach((entry, i) => {
    const left = round(LEFT + i * slot + slot * 0.1);
    body += `<rect x="${left}" y="${y(entry.value)}" width="${round(slot * 0.8)}" height="${round(TOP + PLOT_HEIGHT - y(entry.value))}" fill="${BAR}"><title>${escapeXml(entry.label)}: ${entry.value}</title></rect>`;
    if (i % every === 0) body += `<text x="${round(LEFT + (i + 0.5) * slot)}" y="${TOP + PLOT_HEIGHT + 18}" text-anchor="middle" fill="${INK}">${escapeXml(entry.label)}</text>`;
  });
  body += `<line x1="${LEFT}" x2="${LEFT + PLOT_WIDTH}" y1="${TOP + PLOT_HEIGHT}" y2="${TOP + PLOT_HEIGHT}" stroke="${INK}"/>`;
  return frame(label, body);
}
