// The model page's worker thread (extensions section 10): parses a stored model, highlights its
// source and draws its diagram, off the serving thread, where the largest corpus models took a
// second and a 10^6-feature model many. It keeps the parsed models it made (model.cache.ts, by the
// text's SHA-256; jobs of one model go to one seat), so a later drawing, range of lines or search
// of the same model does not parse it again. It reads no file and opens no database.
import { parentPort } from 'node:worker_threads';
import { checkParsed, limitDiagnostics, parseUvl, toFeatureIde, UvlExportError } from '../../../packages/uvl/src/index.ts';
import { DiagramQueryError, renderDiagram } from './diagram.ts';
import { findFeatures, openingDepth } from './feature-tree.ts';
import { highlightFirstLines, highlightLines, lineCount } from './highlight.ts';
import { createModelCache, type DerivedModel } from './model.cache.ts';
import type { ModelPageJob, ModelPageReply, PageView } from './model-page.jobs.ts';

// Models kept by this worker: their texts add up to at most this (the parsed model is several times the text).
const cache = createModelCache(16 * 1024 * 1024);

function derive(job: ModelPageJob): DerivedModel {
  let derived = cache.get(job.key);
  if (!derived) {
    // Imports are not followed: the diagram draws this file's own tree.
    const parsed = parseUvl(job.text);
    const check = checkParsed(parsed);
    derived = { model: parsed.model, errors: check.errors, warnings: limitDiagnostics(check.warnings, 20), diagrams: new Map() };
    cache.set(job.key, job.text.length, derived);
  }
  return derived;
}

function featureIde(derived: DerivedModel): PageView['featureIde'] {
  if (derived.errors.length > 0) return null;
  try {
    derived.featureIdeLosses ??= { losses: toFeatureIde(derived.model).losses };
  } catch (error) {
    if (!(error instanceof UvlExportError)) throw error;
    derived.featureIdeLosses = { error: error.message };
  }
  return derived.featureIdeLosses;
}

function page(job: Extract<ModelPageJob, { op: 'page' }>, derived: DerivedModel): PageView {
  const depth = job.query.depth ?? openingDepth(derived.model, job.query.root);
  const query = { ...job.query, depth };
  derived.lineCount ??= lineCount(job.text);
  derived.firstLines ??= highlightFirstLines(job.text, job.inlineLines);
  const valid = derived.errors.length === 0;
  return {
    errors: derived.errors,
    warnings: derived.warnings,
    rootName: derived.model.root?.name ?? null,
    depth,
    diagram: valid ? renderDiagram(derived.model, { ...query, linkSuffix: job.linkSuffix, anomalies: job.anomalies, title: job.title }) : null,
    lineCount: derived.lineCount,
    firstLines: derived.firstLines,
    featureIde: job.featureIde ? featureIde(derived) : null,
  };
}

function run(job: ModelPageJob): ModelPageReply {
  const derived = derive(job);
  switch (job.op) {
    case 'page':
      return { id: job.id, kind: 'page', view: page(job, derived) };
    case 'diagram':
      if (derived.errors.length > 0) return { id: job.id, kind: 'syntax-errors', errors: derived.errors };
      return { id: job.id, kind: 'diagram', svg: renderDiagram(derived.model, { ...job.query, anomalies: job.anomalies, title: job.title }) };
    case 'lines':
      // Every line at once: the serving thread keeps them and answers each later range itself.
      derived.lines ??= highlightLines(job.text);
      return { id: job.id, kind: 'lines', lines: derived.lines };
    case 'features':
      return { id: job.id, kind: 'features', features: derived.errors.length > 0 ? [] : findFeatures(derived.model, job.q) };
  }
}

parentPort!.on('message', (job: ModelPageJob) => {
  let reply: ModelPageReply;
  try {
    reply = run(job);
  } catch (error) {
    // A root or depth the drawing cannot honour is the asker's mistake (400), not the model's.
    reply = error instanceof DiagramQueryError
      ? { id: job.id, kind: 'query-error', message: error.message }
      : { id: job.id, kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
