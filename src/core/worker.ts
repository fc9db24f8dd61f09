// Starting a worker thread on a TypeScript module. A compiled build ships the `.js` beside the
// calling file and runs it directly; under tsx, workers do not inherit the loader, so a tiny
// ES module registers it and then loads the worker's source.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A worker running `source` (a `.ts` file URL), or its compiled `.js` twin when that exists. */
export function startTypeScriptWorker(source: URL, options: WorkerOptions = {}): Worker {
  const compiled = new URL(source.href.replace(/\.ts$/, '.js'));
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const bootstrap = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await import(${JSON.stringify(source.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), options);
}
