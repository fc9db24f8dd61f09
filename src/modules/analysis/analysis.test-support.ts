// Models with known analyses and an upload helper for the analysis tests: a planted dead (and
// false-optional) feature, a void model, a constraint-free model, and a large typed model.
import assert from 'node:assert/strict';
import type { TestClient } from '../../../test/support/client.ts';
import type { TestServer } from '../../../test/support/server.ts';
import { fetchJson } from '../../../test/support/uploads.ts';

// The upload helpers live in test/support (other modules' tests use them too); kept here by name.
export { fetchJson, uploadDataset } from '../../../test/support/uploads.ts';

export const DEAD_UVL = 'features\n    Car\n        mandatory\n            Engine\n        optional\n            Turbo\n            "Diésel Motor"\n\nconstraints\n    "Diésel Motor" => !Turbo\n    "Diésel Motor"\n';
export const VOID_UVL = 'features\n    Root\n        mandatory\n            A\n        optional\n            B\n\nconstraints\n    A => B\n    !B\n';
export const FREE_UVL = 'features\n    Printer\n        alternative\n            Laser\n            Inkjet\n        optional\n            Duplex\n                optional\n                    Stapler\n';
/** An or group of 100 (2^100 - 1 ways), a typed feature (language level `type`) and an ignored arithmetic constraint. */
export const BIG_UVL = `features\n    Big\n        or\n${Array.from({ length: 100 }, (_, i) => `            F${i + 1}\n`).join('')}        optional\n            Integer Price\n\nconstraints\n    Price > 3\n    F1 => F2\n`;
export const BIG_COUNT = '1901475900342344102245054808062';
/**
 * 300 optional features under 900 random three-feature clauses (a fixed seed): random formulas of
 * this density have no structure for the counter's components and cache, so counting it takes far
 * longer than a test waits (about 10 s or more).
 */
export const HARD_UVL = (() => {
  let seed = 12345;
  const draw = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const lines = ['features', '    Hard', '        optional', ...Array.from({ length: 300 }, (_, i) => `            F${i + 1}`), '', 'constraints'];
  for (let c = 0; c < 900; c++) {
    lines.push(`    ${Array.from({ length: 3 }, () => `${draw(2) ? '!' : ''}F${1 + draw(300)}`).join(' | ')}`);
  }
  return `${lines.join('\n')}\n`;
})();

/** Polls the API until every file's analysis has left `pending` (no fixed sleeps: a short poll). */
export async function waitForAnalyses(server: TestServer, fileIds: number[], client?: TestClient): Promise<Map<number, any>> {
  const results = new Map<number, any>();
  for (;;) {
    for (const id of fileIds) {
      if (results.has(id)) continue;
      const res = client ? await client.get(`/api/v1/files/${id}/analysis`) : await fetchJson(`${server.baseUrl}/api/v1/files/${id}/analysis`);
      assert.equal(res.status, 200, `analysis of file ${id}: ${JSON.stringify(res.json)}`);
      if (res.json.status !== 'pending') results.set(id, res.json);
    }
    if (results.size === fileIds.length) return results;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
