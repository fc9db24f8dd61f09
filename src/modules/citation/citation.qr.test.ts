import { test } from 'node:test';
import assert from 'node:assert/strict';
import jsqrModule from 'jsqr';
import { qrCodeSvg } from './citation.qr.ts';

// jsqr is CommonJS with a `default` property: under NodeNext its default import is the module object.
const jsQR = (jsqrModule as unknown as { default: typeof jsqrModule.default }).default;

/** Reads the SVG's runs of dark modules back into pixels (4 per module) and decodes them with an independent reader. */
function decode(svg: string): string | undefined {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const scale = 4;
  const width = side * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  const path = /<path d="([^"]*)"/.exec(svg)![1]!;
  // The whole path must be runs of one module's height: a row's first run starts with an absolute
  // move to the middle of its row, each other run with a move along the row from the last one's end.
  assert.match(path, /^(M\d+ \d+\.5h\d+(m\d+ 0h\d+)*)+$/);
  assert.match(svg, /<path d="[^"]*" stroke="#000" stroke-width="1"\/>/);
  let x = 0;
  let y = 0;
  for (const match of path.matchAll(/([Mm])(\d+) (\d+(?:\.5)?)h(\d+)/g)) {
    if (match[1] === 'M') {
      x = Number(match[2]);
      y = Number(match[3]) - 0.5;
    } else {
      x += Number(match[2]);
    }
    const length = Number(match[4]);
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale * length; dx++) {
        const at = ((y * scale + dy) * width + x * scale + dx) * 4;
        pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
      }
    }
    x += length;
  }
  return jsQR(pixels, width, width)?.data;
}

test('the QR code decodes to the DOI URL', () => {
  const url = 'https://doi.org/10.5281/zenodo.1234567';
  const svg = qrCodeSvg(url);
  assert.equal(decode(svg), url);
});

test('the QR code is labelled and its label escaped', () => {
  const svg = qrCodeSvg('https://doi.org/10.1/a<b>&"c"');
  assert.match(svg, /role="img"/);
  assert.match(svg, /<title>QR code for https:\/\/doi.org\/10.1\/a&lt;b&gt;&amp;&quot;c&quot;<\/title>/);
  assert.equal(decode(svg), 'https://doi.org/10.1/a<b>&"c"');
});
