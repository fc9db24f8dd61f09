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
  private last: { values: string[]; page: Buffer } | undefined;

  /** The page with each slot's value, HTML-escaped (a slot stands where text would be). */
  fill(values: Readonly<Record<string, string | number>>): Buffer {
    const texts: string[] = [];
    for (const slot of this.slots) {
      const value = values[slot];
      if (value === undefined) throw new Error(`No value for the page slot "${slot}"`);
      texts.push(String(value));
    }
    const last = this.last;
    if (last !== undefined && texts.every((text, i) => text === last.values[i])) return last.page;
    const parts: Buffer[] = [this.texts[0]!];
    texts.forEach((text, i) => parts.push(Buffer.from(escapeHtml(text), 'utf8'), this.texts[i + 1]!));
    const page = Buffer.concat(parts);
    this.last = { values: texts, page };
    return page;
  }
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
