// The editor's Web Worker: the hub's own parser, diagram and analysis engine on the text the
// editor sends. It answers the diagram first (cheap) and then the analysis as it becomes known;
// the editor terminates it when the text changes under a running analysis (an edit cancels it).
import { parseUvl } from '../../../../packages/uvl/src/index.ts';
import { analyzeModel, type AnalysisResult } from '../../../../packages/analysis/src/index.ts';
import { renderDiagram } from '../../model/index.ts';

export interface WorkerRequest {
  id: number;
  text: string;
  /** The budget of the analysis in the browser (extensions section 12 wants automotive01 within 10 s). */
  timeoutMs: number;
}

export type WorkerAnswer =
  | { id: number; kind: 'invalid' }
  | { id: number; kind: 'diagram'; svg: string }
  | { id: number; kind: 'analysis'; result: AnalysisResult; final: boolean; ms: number; svg?: string };

const post = (answer: WorkerAnswer): void => (self as unknown as Worker).postMessage(answer);

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, text, timeoutMs } = event.data;
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
  post({ id, kind: 'analysis', result, final: true, ms: performance.now() - started, svg: renderDiagram(model, { title, anomalies }) });
};
