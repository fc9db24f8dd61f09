// Loaded into each soak instance (`--expose-gc --import`), never into the hub itself: on SIGUSR2
// it collects the garbage of the main thread and of every worker thread that answers within a
// second, then writes the process's memory to MEMORY_PROBE_FILE. So the soak compares memory
// after a collection at both ends of the run, not wherever V8's heaps happened to be in their
// growth (a 20 s run sampled RSS alone once read +14 % from that).
// It also counts the live worker threads: the hub starts them on demand and stops idle ones
// (tens of MiB each), so two RSS figures compare only with as many workers alive.
// Plain JavaScript: worker threads inherit this `--import` but not the TypeScript loader.
import { renameSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import workerThreads, { BroadcastChannel } from 'node:worker_threads';

const file = process.env.MEMORY_PROBE_FILE;
const collect = globalThis.gc;
/** A worker busy with a long computation answers late: the probe does not wait for it past this. */
const WORKER_WAIT_MS = 1000;

if (file && collect && !workerThreads.isMainThread) {
  const channel = new BroadcastChannel('memory-probe');
  channel.unref();
  channel.onmessage = (event) => {
    if (event.data !== 'collect') return;
    collect();
    channel.postMessage('collected');
  };
}

if (file && collect && workerThreads.isMainThread) {
  let probes = 0;
  let liveWorkers = 0;
  class CountedWorker extends workerThreads.Worker {
    constructor(...args) {
      super(...args);
      liveWorkers++;
      this.once('exit', () => { liveWorkers--; });
    }
  }
  workerThreads.Worker = CountedWorker;
  // The hub imports `Worker` by name: this makes that binding the counting class.
  syncBuiltinESMExports();

  const collectWorkers = () => new Promise((resolve) => {
    const channel = new BroadcastChannel('memory-probe');
    let answered = 0;
    const done = () => {
      clearTimeout(timer);
      channel.close();
      resolve(answered);
    };
    const timer = setTimeout(done, WORKER_WAIT_MS);
    channel.onmessage = (event) => {
      if (event.data === 'collected' && ++answered >= liveWorkers) done();
    };
    if (liveWorkers === 0) done();
    else channel.postMessage('collect');
  });

  process.on('SIGUSR2', async () => {
    await collectWorkers();
    collect();
    const { rss, heapUsed } = process.memoryUsage();
    const probe = {
      probe: ++probes, rssKib: Math.round(rss / 1024), heapKib: Math.round(heapUsed / 1024),
      workers: liveWorkers,
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(probe));
    renameSync(`${file}.tmp`, file);
  });
}
