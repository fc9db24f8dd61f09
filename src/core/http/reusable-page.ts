// Pages rendered once and sent many times (issue 12, item 1). Rendering a page with nunjucks is
// most of a busy page's cost; for a visitor who is not logged in and has no flash message waiting,
// a page depends only on what the route's key says (a dataset's revision, an error's message) plus
// a few values that change on every answer: the CSRF token and counters. Those are rendered as
// markers, and the rendered text is kept cut at the markers; each answer joins the pieces with
// its own values. A marker holds a random nonce of this process, so no stored text can forge one.
import { randomBytes } from 'node:crypto';
import { LruMap } from '../lru-map.ts';

export class ReusablePage {
  /** The text between the slots, encoded once: an answer is a copy of these bytes, not a new string. */
  private readonly texts: Buffer[];
  private readonly slots: string[];

  /** `pieces`: text and slot names alternating (text, name, text, …, text). */
  constructor(pieces: readonly string[]) {
    this.texts = pieces.filter((_, i) => i % 2 === 0).map((text) => Buffer.from(text, 'utf8'));
    this.slots = pieces.filter((_, i) => i % 2 === 1);
  }

  /**
   * The last answer and the slot values it was filled with: a visitor who comes back while the
   * counts stand still is sent the same bytes again, rather than a new copy of the whole page
   * (a copy per answer was a sixth of a returning visitor's time, in the garbage collector).
   * Answers are never changed once made, so one can be sent any number of times.
   */
  private last: { values: string[]; page: Buffer | undefined } | undefined;

  /** The page with each slot's value, HTML-escaped (a slot stands where text would be). */
  fill(values: Readonly<Record<string, string | number>>): Buffer {
    const texts: string[] = [];
    for (const slot of this.slots) {
      const value = values[slot];
      if (value === undefined) throw new Error(`No value for the page slot "${slot}"`);
      texts.push(String(value));
    }
    const last = this.last;
    const again = last !== undefined && texts.every((text, i) => text === last.values[i]);
    if (again && last.page !== undefined) return last.page;
    const parts: Buffer[] = [this.texts[0]!];
    texts.forEach((text, i) => parts.push(Buffer.from(escapeHtml(text), 'utf8'), this.texts[i + 1]!));
    if (again) {
      // Asked twice with the same values: kept in a buffer of its own, which pins no slab.
      const page = Buffer.concat(parts);
      this.last = { values: texts, page };
      return page;
    }
    this.last = { values: texts, page: undefined };
    return joinInSlab(parts);
  }
}

/**
 * Answers are cut from shared slabs: a first visit's page (new CSRF token) is otherwise a buffer
 * of its own, about 22 KB, allocated outside the heap and freed by the garbage collector one by
 * one (a twentieth of a first visit's time, in a CPU profile). A slab is freed once no answer
 * cut from it is referenced; nothing kept for long is cut from one (fill keeps its own copy).
 */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.alloc(0);
let slabAt = 0;

function joinInSlab(parts: Buffer[]): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  if (length > SLAB_BYTES / 4) return Buffer.concat(parts, length);
  if (slabAt + length > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabAt = 0;
  }
  const page = slab.subarray(slabAt, slabAt + length);
  let at = 0;
  for (const part of parts) at += part.copy(page, at);
  // The next answer starts on an 8-byte boundary, as the runtime's own pool does.
  slabAt += (length + 7) & ~7;
  return page;
}

const nonce = randomBytes(9).toString('base64url');
const MARKER = new RegExp(`\u0002${nonce}:([A-Za-z0-9_]+)\u0003`);

/** What a template receives in place of a slot's value while a reusable page is rendered. */
export function slotMarker(name: string): string {
  return `\u0002${nonce}:${name}\u0003`;
}

export function cutAtMarkers(html: string): ReusablePage {
  // split with one capture group alternates text and captured names, as ReusablePage wants.
  return new ReusablePage(withoutIndentation(html).split(new RegExp(MARKER.source, 'g')));
}

/**
 * The page without the templates' indentation (an eighth of a page's bytes): spaces and tabs
 * after a line break are dropped, except inside the elements where they are content or code.
 * A line break stays, so no two words ever join.
 */
export function withoutIndentation(html: string): string {
  const kept = /<(pre|textarea|script|style)\b[\s\S]*?<\/\1>/gi;
  let out = '';
  let from = 0;
  for (const match of html.matchAll(kept)) {
    out += html.slice(from, match.index).replace(/\n[ \t]+/g, '\n') + match[0];
    from = match.index + match[0].length;
  }
  return out + html.slice(from).replace(/\n[ \t]+/g, '\n');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text;
}

/** Least recently used first out; a bounded map of reusable pages under the caller's keys. */
export class ReusablePageCache extends LruMap<string, ReusablePage> {}
