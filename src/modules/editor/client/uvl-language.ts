// UVL for CodeMirror: highlighting by the stream tokenizer (uvl-tokens.ts) and folding of a
// feature's subtree, i.e. of the lines indented deeper than the line it starts on.
import { foldService, indentUnit, StreamLanguage, LanguageSupport } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { startState, token, type UvlTokenState } from './uvl-tokens.ts';

const uvlLanguage = StreamLanguage.define<UvlTokenState>({
  name: 'uvl',
  startState,
  token,
  copyState: (s) => ({ comment: s.comment }),
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

/** Width of a line's indentation (a tab to the next multiple of 8, as the scanner counts), or -1 for a blank line. */
function indentation(text: string): number {
  let width = 0;
  for (const ch of text) {
    if (ch === ' ') width++;
    else if (ch === '\t') width = width - (width % 8) + 8;
    else return width;
  }
  return -1;
}

/** The range of the lines below `lineStart` indented deeper than it, if there are any. */
export function subtreeRange(state: EditorState, lineStart: number): { from: number; to: number } | null {
  const line = state.doc.lineAt(lineStart);
  const own = indentation(line.text);
  if (own < 0) return null;
  let end = line.to;
  for (let n = line.number + 1; n <= state.doc.lines; n++) {
    const next = state.doc.line(n);
    const width = indentation(next.text);
    if (width < 0) continue;
    if (width <= own) break;
    end = next.to;
  }
  return end > line.to ? { from: line.to, to: end } : null;
}

export function uvl(): LanguageSupport {
  return new LanguageSupport(uvlLanguage, [foldService.of((state, from) => subtreeRange(state, from)), indentUnit.of('\t')]);
}
