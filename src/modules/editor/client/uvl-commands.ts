// The editor's commands on the parsed document: completion of keywords and feature names, go to
// declaration, rename a feature with its references, format with the hub's printer.
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { KEYWORD_TEXTS } from '../../../../packages/uvl/src/index.ts';
import { analyseText, declarationOf, formatText, occurrenceAt, renameFeature, writtenName, type UvlDocument } from './uvl-document.ts';

const KEYWORDS: Completion[] = [...KEYWORD_TEXTS].sort().map((label) => ({ label, type: 'keyword' }));

/** The parse of the view's text, done again only when the text changed. */
const cache = new WeakMap<object, UvlDocument>();
export function documentOf(view: { state: EditorView['state'] }): UvlDocument {
  const key = view.state.doc;
  let doc = cache.get(key);
  if (!doc) {
    doc = analyseText(key.toString());
    cache.set(key, doc);
  }
  return doc;
}

export function completeUvl(context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/"[^"\n]*|[a-zA-Z][\w#§%?\\'äüöß;-]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const doc = documentOf(context);
  const features: Completion[] = doc.featureNames.map((name) => ({ label: writtenName(name), type: 'variable', boost: 1 }));
  return { from: word.from, options: [...features, ...KEYWORDS], validFor: /^("[^"\n]*|[\w#§%?\\'äüöß;-]*)$/ };
}

/** Moves the cursor to the declaration of the feature under it. */
export function goToDeclaration(view: EditorView): boolean {
  const target = declarationOf(documentOf(view), view.state.selection.main.head);
  if (!target) return false;
  view.dispatch({ selection: { anchor: target.from, head: target.to }, scrollIntoView: true });
  view.focus();
  return true;
}

/** The feature under the cursor, for the rename dialog. */
export function featureAtCursor(view: EditorView): string | undefined {
  return occurrenceAt(documentOf(view), view.state.selection.main.head)?.name;
}

/** Renames `from` to `to` everywhere in one undoable change; the message when it cannot. */
export function renameInView(view: EditorView, from: string, to: string): string | null {
  const result = renameFeature(documentOf(view), from, to);
  if (!result.ok) return result.message;
  view.dispatch({ changes: result.changes, userEvent: 'rename' });
  return null;
}

/** Replaces the text by the hub's canonical print of the model; the message when it cannot. */
export function formatInView(view: EditorView): string | null {
  const result = formatText(documentOf(view));
  if (!result.ok) return result.message;
  if (result.text !== view.state.doc.toString()) {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: result.text }, userEvent: 'format' });
  }
  return null;
}
