// XML for the readers: fast-xml-parser (well-formedness errors with line and column), its
// ordered output turned into a small element tree that keeps each element's source offset.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { formatError, positionOf } from './imported.ts';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** Child elements in document order. */
  children: XmlElement[];
  /** The element's own text, concatenated (child elements' text excluded). */
  text: string;
  /** UTF-16 offset of the element's start tag. */
  offset: number;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  captureMetaData: true,
  htmlEntities: true,
});
const META = XMLParser.getMetaDataSymbol();

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function convert(node: OrderedNode): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text' || name.startsWith('?')) return undefined;
  const element: XmlElement = {
    name,
    attributes: node[':@'] ?? {},
    children: [],
    text: '',
    offset: (node[META as unknown as string] as { startIndex?: number } | undefined)?.startIndex ?? 0,
  };
  for (const child of (node[name] as OrderedNode[]) ?? []) {
    if ('#text' in child) element.text += String(child['#text']);
    else {
      const c = convert(child);
      if (c) element.children.push(c);
    }
  }
  return element;
}

/** The document's root element, or the parser's error as `Line l:c - message`. */
export function parseXml(text: string): { root: XmlElement } | { error: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const valid = XMLValidator.validate(body, { allowBooleanAttributes: true });
  // An empty or blank text's error has no column (it was `Line 1:NaN`).
  if (valid !== true) return { error: formatError(valid.err.line || 1, Math.max(0, (valid.err.col || 1) - 1), `not well-formed XML: ${valid.err.msg}`) };
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(body) as OrderedNode[];
  } catch (error) {
    // Well-formed but refused by the parser, e.g. a DOCTYPE declaring external entities.
    return { error: formatError(1, 0, `XML not accepted: ${(error as Error).message}`) };
  }
  for (const n of nodes) {
    const e = convert(n);
    if (e) return { root: e };
  }
  return { error: formatError(1, 0, 'no XML root element') };
}

/** `Line l:c - message` at an element's start tag. */
export function errorAt(text: string, element: XmlElement, message: string): string {
  const { line, column } = positionOf(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, element.offset);
  return formatError(line, column, message);
}
