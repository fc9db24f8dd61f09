// The live panel beside the text (extensions section 12): the feature diagram and the analysis,
// computed in a Web Worker from the text as it is. A result that no longer matches the text is
// marked stale; an edit terminates a worker that is still analysing (the cancel) and the next
// worker starts from the text once typing pauses.
import type { Text } from '@codemirror/state';
import type { AnalysisResult, EditClassification } from '../../../../packages/analysis/src/index.ts';
import type { WorkerAnswer, WorkerRequest } from './analysis.worker.ts';

export interface Panel {
  textChanged(doc: Text): void;
}

/** Time typing must pause before the worker gets the text. */
const SETTLE_MS = 300;
const TIMEOUT_MS = 60_000;

/** The panel's elements and the state of its workers, shared by the functions below. */
interface LivePanel {
  /** Carries the panel's state as data attributes (data-state, data-ms, data-cancelled, data-spare-ready). */
  box: HTMLElement;
  diagram: HTMLElement;
  facts: HTMLElement;
  status: HTMLElement;
  goToLine: (line: number) => void;
  workerUrl: string;
  base: string | undefined;
  worker: Worker | undefined;
  /**
   * A started worker waiting in reserve: an edit that cancels a running analysis switches to it at
   * once, and the next reserve starts only when typing pauses, so typing never asks for a script.
   */
  spare: Worker | undefined;
  /** The workers that have loaded all of their script. */
  loaded: WeakSet<Worker>;
  busy: boolean;
  /** The id of the last text sent: an answer to an earlier one is dropped. */
  sent: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  latest: Text | undefined;
}

export function createPanel(box: HTMLElement, goToLine: (line: number) => void, base?: string): Panel {
  const panel = findPanel(box, goToLine, base);
  // Links of the drawing point at the model page's subtrees: here they would leave the editor.
  panel.diagram.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) event.preventDefault();
  });

  return {
    textChanged(doc) {
      panel.latest = doc;
      if (panel.busy && panel.worker) cancelRunning(panel, panel.worker);
      if (box.dataset.state) setState(panel, 'stale', 'Stale: the text changed; the panel catches up when typing pauses.');
      clearTimeout(panel.timer);
      panel.timer = setTimeout(() => run(panel), box.dataset.state ? SETTLE_MS : 0);
    },
  };
}

function findPanel(box: HTMLElement, goToLine: (line: number) => void, base: string | undefined): LivePanel {
  return {
    box,
    diagram: box.querySelector<HTMLElement>('#panel-diagram')!,
    facts: box.querySelector<HTMLElement>('#panel-analysis')!,
    status: box.querySelector<HTMLElement>('#panel-state')!,
    goToLine,
    workerUrl: box.dataset.workerUrl!,
    base,
    worker: undefined,
    spare: undefined,
    loaded: new WeakSet<Worker>(),
    busy: false,
    sent: 0,
    timer: undefined,
    latest: undefined,
  };
}

function setState(panel: LivePanel, kind: 'current' | 'stale' | 'running' | 'invalid', text: string): void {
  panel.box.dataset.state = kind;
  panel.status.textContent = text;
}

/** data-spare-ready tells whether the reserve worker has loaded all of its script. */
function showSpare(panel: LivePanel): void {
  if (panel.spare && panel.loaded.has(panel.spare)) panel.box.dataset.spareReady = '1';
  else delete panel.box.dataset.spareReady;
}

function spawn(panel: LivePanel): Worker {
  const w = new Worker(panel.workerUrl, { type: 'module' });
  w.onmessage = (event: MessageEvent<WorkerAnswer>) => {
    if (event.data.kind === 'ready') {
      panel.loaded.add(w);
      showSpare(panel);
      return;
    }
    showAnswer(panel, event.data);
  };
  w.onerror = () => { panel.busy = false; setState(panel, 'invalid', 'The analysis stopped with an error.'); };
  return w;
}

function showAnswer(panel: LivePanel, a: Exclude<WorkerAnswer, { kind: 'ready' }>): void {
  if (a.id !== panel.sent) return;
  if (a.kind === 'invalid') {
    panel.busy = false;
    setState(panel, 'invalid', 'The text has errors: the diagram and the analysis show the last model that parsed.');
    return;
  }
  if (a.kind === 'diagram') {
    panel.diagram.innerHTML = a.svg;
    return;
  }
  if (a.kind === 'comparison') {
    renderComparison(a.comparison);
    return;
  }
  renderFacts(panel.facts, a.result, panel.goToLine);
  if (a.svg) panel.diagram.innerHTML = a.svg;
  if (a.final) {
    panel.busy = false;
    panel.box.dataset.ms = String(Math.round(a.ms));
    setState(panel, 'current', `Up to date (analysed in ${(a.ms / 1000).toFixed(1)} s).`);
  }
}

/** Sends the latest text to the worker, and starts the reserve if there is none. */
function run(panel: LivePanel): void {
  if (!panel.latest) return;
  panel.worker ??= spawn(panel);
  panel.busy = true;
  panel.sent++;
  setState(panel, 'running', 'Analysing…');
  const request: WorkerRequest = { id: panel.sent, text: panel.latest.toString(), timeoutMs: TIMEOUT_MS, base: panel.base };
  panel.worker.postMessage(request);
  panel.spare ??= spawn(panel);
  showSpare(panel);
}

/** An edit during an analysis: the worker is terminated and the reserve takes its place. */
function cancelRunning(panel: LivePanel, running: Worker): void {
  running.terminate();
  panel.box.dataset.cancelled = String(Number(panel.box.dataset.cancelled ?? 0) + 1);
  panel.worker = panel.spare;
  panel.spare = undefined;
  showSpare(panel);
  panel.busy = false;
}

const KIND_TEXT: Record<string, string> = {
  refactoring: 'a refactoring: the same configurations',
  generalization: 'a generalization: every configuration of the stored model, and more',
  specialization: 'a specialization: only configurations of the stored model, fewer',
  arbitrary: 'an arbitrary edit: configurations gained and lost',
  unknown: 'not decided in time',
};

/** The comparison with the stored model, in the save section beside Save as new version. */
function renderComparison(c: EditClassification | null): void {
  const box = document.getElementById('version-comparison');
  if (!box) return;
  box.dataset.editClass = c ? c.kind : 'none';
  if (!c) {
    box.textContent = 'The stored model does not parse: there is nothing to compare with.';
    return;
  }
  const names = (list: string[]) => (list.length === 0 ? 'none' : list.slice(0, 20).join(', ') + (list.length > 20 ? ` and ${list.length - 20} more` : ''));
  box.replaceChildren(
    element('strong', `Compared with the stored model: ${KIND_TEXT[c.kind]}.`),
    element('div', `Features added: ${names(c.addedFeatures)}. Removed: ${names(c.removedFeatures)}.`),
  );
}

function element(tag: string, text?: string, className?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

function row(list: HTMLElement, term: string, value: string, id: string): void {
  const div = element('div', undefined, 'fact-row');
  const dd = element('dd', value);
  dd.id = id;
  div.append(element('dt', term), dd);
  list.append(div);
}

/** Explanation entries `Line N: text` become buttons that move the cursor to line N. */
function explanation(lines: string[], goToLine: (line: number) => void): HTMLElement {
  const ul = element('ul', undefined, 'explanation small mb-0');
  for (const raw of lines) {
    const li = element('li');
    const match = /^Line (\d+): ([\s\S]*)$/.exec(raw);
    if (match) {
      const button = element('button', `Line ${match[1]}`, 'btn btn-link btn-sm p-0 align-baseline explanation-line') as HTMLButtonElement;
      button.type = 'button';
      button.addEventListener('click', () => goToLine(Number(match[1])));
      li.append(button, ': ', element('code', match[2]));
    } else li.append(element('code', raw));
    ul.append(li);
  }
  return ul;
}

function anomalyList(title: string, id: string, names: string[] | null, why: Record<string, string[]>, goToLine: (line: number) => void): HTMLElement {
  const section = element('section', undefined, 'anomaly-list mt-2');
  section.id = id;
  section.append(element('h3', `${title} (${names === null ? 'unknown' : names.length})`, 'h6 mb-1'));
  const ul = element('ul', undefined, 'list-unstyled mb-0 small');
  for (const name of (names ?? []).slice(0, 200)) {
    const li = element('li', undefined, 'anomaly');
    li.dataset.feature = name;
    li.append(element('code', name));
    if (why[name]?.length) li.append(explanation(why[name]!, goToLine));
    ul.append(li);
  }
  section.append(ul);
  return section;
}

function renderFacts(box: HTMLElement, r: AnalysisResult, goToLine: (line: number) => void): void {
  const list = element('dl', undefined, 'fact-rows mb-0');
  row(list, 'Satisfiable', r.satisfiable === null ? 'unknown' : r.satisfiable ? 'yes' : 'no (void model)', 'live-satisfiable');
  row(list, 'Configurations', r.configurations ?? (r.configurations_status === 'timeout' ? 'out of time' : 'counting…'), 'live-configurations');
  row(list, 'Features', String(r.metrics.features), 'live-features');
  const parts: HTMLElement[] = [list];
  if (r.satisfiable === false) parts.push(explanation(r.explanations?.void ?? [], goToLine));
  parts.push(
    anomalyList('Dead features', 'live-dead', r.dead, r.explanations?.dead ?? {}, goToLine),
    anomalyList('False-optional features', 'live-false-optional', r.false_optional, r.explanations?.false_optional ?? {}, goToLine),
    anomalyList('Core features', 'live-core', r.core, {}, goToLine),
  );
  box.replaceChildren(...parts);
}
