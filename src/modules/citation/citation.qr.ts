// The DOI page's QR code (extensions section 8): the DOI URL drawn by the server as an SVG.
// The `qrcode` library encodes the text (versions, masks, error correction); the drawing is ours
// so that it is synchronous (the citation box is built and kept synchronously) and carries a title
// for screen readers. One stroked path of horizontal runs, each a move and a length from the end
// of the one before, keeps the markup small (about 1.7 KB for a DOI URL's whole SVG, against 3.3 KB
// with each run a filled rectangle and 5.9 KB with a square per dark module; the page is sent to
// every visitor, and its bytes are most of a kept page's cost), joined from an array, so the kept
// box holds one flat string, not the chain of hundreds of pieces that `+=` leaves (about 40 KB of
// heap per DOI, measured in the soak's heap snapshots).
import QRCode from 'qrcode';

/** The quiet zone QR readers need around the symbol, in modules (the standard asks for four). */
const QUIET_ZONE = 4;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An SVG element encoding `url`, labelled for assistive technology; safe to place in HTML as is. */
export function qrCodeSvg(url: string, label = `QR code for ${url}`): string {
  const symbol = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const size = symbol.modules.size;
  const side = size + 2 * QUIET_ZONE;
  const runs: string[] = [];
  for (let row = 0; row < size; row++) {
    // A stroke one module wide along the middle of the row: it covers the row's height exactly.
    let end = -1;
    for (let column = 0; column < size;) {
      if (!symbol.modules.get(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < size && symbol.modules.get(row, column)) column++;
      runs.push(end < 0 ? `M${start + QUIET_ZONE} ${row + QUIET_ZONE}.5h${column - start}` : `m${start - end} 0h${column - start}`);
      end = column;
    }
  }
  const path = runs.join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" role="img" aria-label="${escapeXml(label)}" shape-rendering="crispEdges" class="qr-code"><title>${escapeXml(label)}</title><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" stroke="#000" stroke-width="1"/></svg>`;
}
