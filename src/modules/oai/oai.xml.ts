// XML text built by hand: every text and attribute value goes through `esc`, so a title with
// `<`, `&` or quotes (or a control character a browser would refuse) never breaks the document.

/** Characters XML 1.0 does not allow at all (they are dropped, not escaped). */
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/gu;

export function esc(text: string): string {
  return text.replace(ILLEGAL, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export type Attributes = Record<string, string | number | undefined | null>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`).join('');
}

/** `<name attrs>text</name>`, the text escaped. */
export function textElement(name: string, text: string, attrs: Attributes = {}): string {
  return `<${name}${attributes(attrs)}>${esc(text)}</${name}>`;
}

/** `<name attrs>children</name>`, the children already XML (or an empty element without them). */
export function element(name: string, children: string | string[], attrs: Attributes = {}): string {
  const inner = Array.isArray(children) ? children.join('') : children;
  return inner === '' ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>${inner}</${name}>`;
}
