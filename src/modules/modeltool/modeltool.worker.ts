// The modeltool's worker thread: parses a stored model with the imports read so far, names the
// ones still wanted, and converts it to an export target. It reads no file and opens no database.
import { parentPort } from 'node:worker_threads';
import { createReadAheadLoader, formatDiagnostic, parseUvl, UvlExportError } from '../../../packages/uvl/src/index.ts';
import { EXPORT_TARGETS } from './modeltool.service.ts';
import type { ModeltoolJob, ModeltoolReply } from './modeltool.jobs.ts';

function run(job: ModeltoolJob): ModeltoolReply {
  const wanted = new Set<string>();
  const result = parseUvl(job.text, { fileName: job.fileName, loader: createReadAheadLoader(job.fileName, job.known, wanted) });
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const d of result.diagnostics) (d.severity === 'error' ? errors : warnings).push(formatDiagnostic(d));
  const reply: ModeltoolReply = { id: job.id, kind: 'done', wanted: [...wanted], check: { valid: errors.length === 0, errors, warnings } };
  if (job.target === undefined || errors.length > 0) return reply;
  try {
    return { ...reply, output: EXPORT_TARGETS[job.target].convert(result.model) };
  } catch (error) {
    if (error instanceof UvlExportError) return { ...reply, exportError: error.message };
    throw error;
  }
}

parentPort!.on('message', (job: ModeltoolJob) => parentPort!.postMessage(run(job)));
