// The editor page's entry (extensions section 12): CodeMirror with UVL, diagnostics as you type
// from the hub's own parser, the commands, unsaved text kept in local storage, and the live panel
// loaded only when it is shown. While typing, nothing here talks to the server.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, foldGutter, foldKeymap, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { linter, lintGutter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import {
  EditorView, crosshairCursor, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers,
} from '@codemirror/view';
import { uvl } from './uvl-language.ts';
import { completeUvl, documentOf, featureAtCursor, formatInView, goToDeclaration, renameInView } from './uvl-commands.ts';
import { keepDraft } from './local-draft.ts';
import type { Panel } from './panel.ts';

const root = document.getElementById('editor')!;
const initial = (document.getElementById('editor-initial') as HTMLTextAreaElement).value;
const status = document.getElementById('editor-status')!;
const list = document.getElementById('diagnostics')!;
let panel: Panel | undefined;

const say = (message: string): void => { status.textContent = message; };

function lineOf(view: EditorView, offset: number): number {
  return view.state.doc.lineAt(offset).number;
}

/** The diagnostics list under the editor: one entry a diagnostic, each a button to its place. */
function showDiagnostics(view: EditorView, diagnostics: Diagnostic[]): void {
  list.replaceChildren(...diagnostics.slice(0, 100).map((d) => {
    const item = document.createElement('li');
    item.className = `diagnostic diagnostic-${d.severity}`;
    item.dataset.line = String(lineOf(view, d.from));
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn btn-link btn-sm p-0 text-start';
    button.textContent = d.message;
    button.addEventListener('click', () => jumpTo(view, d.from));
    item.append(button);
    return item;
  }));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  root.dataset.errors = String(errors);
  // When the check of the current text was shown: the benchmark's keystroke-to-diagnostic end.
  root.dataset.checkedAt = String(performance.now());
  document.getElementById('diagnostic-count')!.textContent = diagnostics.length === 0
    ? 'No problems.'
    : `${errors} error${errors === 1 ? '' : 's'}, ${diagnostics.length - errors} warning${diagnostics.length - errors === 1 ? '' : 's'}${diagnostics.length > 100 ? ' (the first 100 listed)' : ''}.`;
}

function jumpTo(view: EditorView, offset: number): void {
  view.dispatch({ selection: { anchor: offset }, scrollIntoView: true });
  view.focus();
}

const uvlLinter = linter((view) => {
  const doc = documentOf(view);
  const diagnostics: Diagnostic[] = doc.diagnostics.map((d) => ({ ...d }));
  showDiagnostics(view, diagnostics);
  root.dataset.checked = String(view.state.doc.length);
  return diagnostics;
}, { delay: 10 });

const draft = keepDraft(root.dataset.storageKey!, initial, document.getElementById('draft-notice')!);

// Inside a shadow root CodeMirror's styles are constructed style sheets, which the hub's CSP
// (style-src 'self', no inline style elements) allows; on the document it would need a nonce.
const host = document.getElementById('editor-host')!;
const shadow = host.attachShadow({ mode: 'open' });
const view = new EditorView({
  parent: shadow,
  root: shadow,
  state: EditorState.create({
    doc: draft.text,
    extensions: [
      lineNumbers(), highlightActiveLineGutter(), foldGutter(), lintGutter(), history(), drawSelection(),
      EditorState.allowMultipleSelections.of(true), bracketMatching(), closeBrackets(), crosshairCursor(),
      highlightActiveLine(), highlightSelectionMatches(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      uvl(), uvlLinter, autocompletion({ override: [completeUvl], icons: false }),
      keymap.of([
        { key: 'F12', run: goToDeclaration },
        { key: 'F2', run: () => { openRename(); return true; } },
        { key: 'Shift-Alt-f', run: (v) => { report(formatInView(v), 'Formatted with the hub\'s printer.'); return true; } },
        ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap,
        ...completionKeymap, ...lintKeymap, indentWithTab,
      ]),
      // The key hint under the text is read out when the text gets the focus.
      // tabindex 0 names the text as the focusable part of its scrolling box (it is reached by Tab
      // either way): axe's scrollable-region-focusable found the scroller of a long model without one.
      EditorView.contentAttributes.of({ 'aria-label': 'UVL model text', 'aria-describedby': 'editor-keys', tabindex: '0' }),
      EditorView.theme({
        '&': { height: '65vh', fontSize: '0.875rem', border: '1px solid #dee2e6', borderRadius: '0.375rem' },
        '&.cm-focused': { outline: '2px solid #86b7fe' },
        '.cm-scroller': { fontFamily: 'SFMono-Regular, Menlo, Monaco, Consolas, "Liberation Mono", monospace' },
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        draft.changed(() => update.state.doc.toString());
        panel?.textChanged(update.state.doc);
      }),
    ],
  }),
});

function report(message: string | null, done: string): void {
  say(message ?? done);
}

function openRename(): void {
  const form = document.getElementById('rename-form') as HTMLFormElement;
  const from = form.elements.namedItem('from') as HTMLInputElement;
  from.value = featureAtCursor(view) ?? from.value;
  form.hidden = false;
  (form.elements.namedItem('to') as HTMLInputElement).focus();
}

document.getElementById('btn-format')!.addEventListener('click', () => report(formatInView(view), 'Formatted with the hub\'s printer.'));
document.getElementById('btn-goto')!.addEventListener('click', () => {
  if (!goToDeclaration(view)) say('Put the cursor on a feature name to go to its declaration.');
});
document.getElementById('btn-rename')!.addEventListener('click', openRename);
document.getElementById('rename-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const from = (form.elements.namedItem('from') as HTMLInputElement).value.trim();
  const to = (form.elements.namedItem('to') as HTMLInputElement).value;
  const problem = renameInView(view, from, to);
  say(problem ?? `Renamed ${from} to ${to.trim()}.`);
  if (!problem) {
    form.hidden = true;
    view.focus();
  }
});

// The save forms post the text as it is now; the stored copy goes once the hub has it.
for (const form of document.querySelectorAll<HTMLFormElement>('form.js-save-text')) {
  form.addEventListener('submit', () => {
    (form.elements.namedItem('text') as HTMLInputElement).value = view.state.doc.toString();
    draft.submitted();
  });
}

/** The panel's script and its worker load only when the panel is shown (the editor alone stays light). */
async function showPanel(): Promise<void> {
  const box = document.getElementById('panel')!;
  box.hidden = false;
  document.getElementById('btn-panel')!.setAttribute('aria-expanded', 'true');
  if (!panel) {
    const { createPanel } = await import('./panel.ts');
    const base = root.dataset.fileId ? initial : undefined;
    panel = createPanel(box, (line) => jumpTo(view, view.state.doc.line(Math.min(line, view.state.doc.lines)).from), base);
    panel.textChanged(view.state.doc);
  }
}
function hidePanel(): void {
  document.getElementById('panel')!.hidden = true;
  document.getElementById('btn-panel')!.setAttribute('aria-expanded', 'false');
}
document.getElementById('btn-panel')!.addEventListener('click', () => {
  if (document.getElementById('panel')!.hidden) void showPanel();
  else hidePanel();
});
if (root.dataset.panel === 'open' || window.matchMedia('(min-width: 992px)').matches) void showPanel();

root.dataset.ready = 'true';
(window as unknown as { hubEditor: EditorView }).hubEditor = view;
