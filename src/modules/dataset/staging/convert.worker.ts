// The worker thread that reads an uploaded model of another format (FeatureIDE, SXFM, Glencoe):
// a 25 MB FeatureIDE file with 10^6 features took seconds to read, which on the serving thread
// held up every other request. It reads no file and opens no database: the bytes come with the job.
import { parentPort } from 'node:worker_threads';
import { featureIdeFeatureCount, readModelFile } from '../../../../packages/uvl/src/index.ts';
import type { ConvertJob, ConvertReply } from './convert-in-worker.ts';

parentPort!.on('message', (job: ConvertJob) => {
  let reply: ConvertReply;
  try {
    // Counted from the bytes first: the reader's tree of a file over the limit would take more
    // memory than the worker's budget (1.3 GB of heap for 10^6 features) only to be refused.
    const features = job.maxFeatures === undefined || !/\.xml$/i.test(job.name) ? 0 : featureIdeFeatureCount(job.bytes);
    if (features > job.maxFeatures!) {
      parentPort!.postMessage({ id: job.id, kind: 'done', format: 'featureide', losses: [], errors: [], tooManyFeatures: features } satisfies ConvertReply);
      return;
    }
    const result = readModelFile(job.name, job.bytes);
    reply = {
      id: job.id, kind: 'done', format: result.format, losses: result.losses, errors: result.errors,
      // The report alone (a stored original read again) does not send the UVL back.
      uvl: job.op === 'convert' ? result.uvl : undefined,
    };
  } catch (error) {
    reply = { id: job.id, kind: 'done', format: undefined, losses: [], errors: [error instanceof Error ? error.message : String(error)] };
  }
  parentPort!.postMessage(reply);
});
