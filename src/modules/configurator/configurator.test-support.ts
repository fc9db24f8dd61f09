// A hand-made model with known answers, and a poll for stored results, for the configurator's tests.
import assert from 'node:assert/strict';

/** 6 configurations: Laser or Inkjet, Duplex optional, Stapler only with Duplex. */
export const PRINTER_UVL = 'features\n    Printer\n        alternative\n            Laser\n            Inkjet\n        optional\n            Duplex\n                optional\n                    Stapler\n';

/** Polls a 202-then-200 URL until it answers 200 (a short poll, no fixed sleep); its JSON. */
export async function waitForResult(url: string, headers: Record<string, string> = {}): Promise<any> {
  for (;;) {
    const res = await fetch(url, { headers });
    if (res.status === 200) return res.json();
    assert.equal(res.status, 202, await res.text());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A generated model (1,501 features for 300 groups) in or-groups with cross-group constraints: its pairwise sample takes seconds, long enough to report. Without the
 * constraints across groups it compiles in a fraction of a second (the page compiles it on the sample's seat). */
export function generatedModel(groups: number, crossConstraints = true): string {
  const lines = ['features', '    Root', '        optional'];
  for (let g = 0; g < groups; g++) {
    lines.push(`            G${g}`, '                or');
    for (let k = 0; k < 4; k++) lines.push(`                    F${g}_${k}`);
  }
  lines.push('constraints');
  for (let g = 0; g + 1 < groups; g++) {
    lines.push(`    F${g}_0 => !F${g + 1}_1`);
    if (crossConstraints) lines.push(`    F${g}_2 => F${(g * 7 + 3) % groups}_3 | G${(g + 5) % groups}`);
  }
  return `${lines.join('\n')}\n`;
}
