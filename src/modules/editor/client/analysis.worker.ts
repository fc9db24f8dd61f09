// The editor's Web Worker: the hub's own parser, diagram and analysis engine on the text the
// editor sends. It answers the diagram first (cheap) and then the analysis as it becomes known;
// the editor terminates it when the text changes under a running analysis (an edit cancels it).
import { parseUvl } from '../../../../packages/uvl/src/index.ts';
import { analyzeModel, classifyEdit, type AnalysisResult, type EditClassification } from '../../../../packages/analysis/src/index.ts';
import { renderDiagram } from '../../model/index.ts';

export interface WorkerRequest {
  id: number;
  text: string;
  /** The budget of the analysis in the browser (extensions section 12 wants automotive01 within 10 s). */
  timeoutMs: number;
  /** The stored model the text was opened from: the edit is classified against it (extensions section 2's comparison). */
  base?: string;
}

export type WorkerAnswer =
  | { id: 0; kind: 'ready' }
  | { id: number; kind: 'invalid' }
  | { id: number; kind: 'diagram'; svg: string }
  | { id: number; kind: 'analysis'; result: AnalysisResult; final: boolean; ms: number; svg?: string }
  | { id: number; kind: 'comparison'; comparison: EditClassification | null };

/** The classification of the edit against the stored model; null when that one does not parse. */
function compare(base: string, model: ReturnType<typeof parseUvl>['model'], timeoutMs: number): EditClassification | null {
  const before = parseUvl(base);
  if (before.diagnostics.some((d) => d.severity === 'error')) return null;
  return classifyEdit(before.model, model, { deadline: Date.now() + timeoutMs });
}

const post = (answer: WorkerAnswer): void => (self as unknown as Worker).postMessage(answer);

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, text, timeoutMs, base } = event.data;
  const started = performance.now();
  const { model, diagnostics } = parseUvl(text);
  if (diagnostics.some((d) => d.severity === 'error')) {
    post({ id, kind: 'invalid' });
    return;
  }
  const title = 'Feature diagram of the edited model';
  post({ id, kind: 'diagram', svg: renderDiagram(model, { title }) });
  let lastProgress = 0;
  const result = analyzeModel(model, {
    text,
    timeoutMs,
    onProgress: (partial) => {
      // Partial results at most every 200 ms: each is a copy sent across to the page.
      const now = performance.now();
      if (now - lastProgress < 200) return;
      lastProgress = now;
      post({ id, kind: 'analysis', result: partial, final: false, ms: now - started });
    },
  });
  const anomalies = { core: result.core ?? [], dead: result.dead ?? [], falseOptional: result.false_optional ?? [] };
  const final: WorkerAnswer = { id, kind: 'analysis', result, final: true, ms: performance.now() - started, svg: renderDiagram(model, { title, anomalies }) };
  if (base !== undefined) post({ id, kind: 'comparison', comparison: compare(base, model, timeoutMs) });
  post(final);
};

// Posted once the script and every chunk it imports are loaded: a reserve worker that said so asks
// the server for nothing more when it takes over.
post({ id: 0, kind: 'ready' });
