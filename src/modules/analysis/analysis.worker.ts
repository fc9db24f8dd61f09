// The analysis worker thread: parses one model (imports from the files the main thread sent)
// and runs the engine with the budget it was given. It reads no file and opens no database:
// the main thread owns both, so a killed worker leaves nothing half-written.
import { parentPort } from 'node:worker_threads';
import { flattenModel, formatDiagnostic, parseUvl, createReadAheadLoader } from '../../../packages/uvl/src/index.ts';
import { analyzeModel, classifyEdit } from '../../../packages/analysis/src/index.ts';
import type { ClassifyJob, ClassifyReply, ProgressMessage, WorkerJob, WorkerReply } from './analysis.protocol.ts';

/** Both versions are parsed without their imports: a model that needs one is not classified. */
function classify(job: ClassifyJob): ClassifyReply {
  const deadline = Date.now() + job.timeoutMs;
  const before = parseUvl(job.before.text, { fileName: job.before.fileName });
  const after = parseUvl(job.after.text, { fileName: job.after.fileName });
  const broken = (p: typeof before) => !p.model || p.diagnostics.some((d) => d.severity === 'error');
  if (broken(before) || broken(after)) return { kind: 'classified', id: job.id, editKind: 'invalid' };
  const result = classifyEdit(before.model!, after.model!, { deadline });
  return { kind: 'classified', id: job.id, editKind: result.kind };
}

function run(job: WorkerJob): WorkerReply {
  const wanted = new Set<string>();
  const loader = createReadAheadLoader(job.fileName, job.imports, wanted);
  const parsed = parseUvl(job.text, { fileName: job.fileName, loader });
  // Imports not sent yet: the main thread reads them from the dataset and asks again.
  if (wanted.size > 0 && job.round < job.maxRounds) return { kind: 'need', id: job.id, paths: [...wanted] };
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  if (errors.length > 0 || !parsed.model) return { kind: 'invalid', id: job.id, errors };
  const onProgress = (result: ProgressMessage['result'], running: ProgressMessage['running']) => {
    parentPort!.postMessage({ kind: 'progress', id: job.id, result, running } satisfies ProgressMessage);
  };
  const result = analyzeModel(parsed.model, { text: job.text, timeoutMs: job.timeoutMs, onProgress });
  const names = [...new Set(flattenModel(parsed.model).features.map((f) => f.name))];
  return { kind: 'done', id: job.id, result, names };
}

parentPort!.on('message', (job: WorkerJob | ClassifyJob) => {
  let reply: WorkerReply | ClassifyReply;
  try {
    reply = job.kind === 'classify' ? classify(job) : run(job);
  } catch (error) {
    reply = { kind: 'error', id: job.id, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
