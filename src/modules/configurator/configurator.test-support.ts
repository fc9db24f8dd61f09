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
