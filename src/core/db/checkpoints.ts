// SQLite's WAL checkpoints off the serving thread. By default the connection that commits copies
// the log back into the database file whenever the log passes 1000 pages, and syncs the file to
// disk while it does: every few hundred first visits (a view record writes five pages), one
// request's commit also did that copy and its fsync on the event loop, and every other request
// waited. Here the serving connection never checkpoints (wal_autocheckpoint = 0); after a number
// of writes it asks a worker thread, which holds its own connection to the same file, for a
// PASSIVE checkpoint: one that never waits for, nor blocks, a reader or a writer. The log restarts
// from its beginning at the first write that finds it wholly copied back, which a pause between
// writes gives. Under writes without a pause the worker never quite catches up (each of its
// checkpoints ends behind the writes made meanwhile) and the log would grow without end: once it
// holds more than MAX_LOG_PAGES, the serving connection finishes the copy itself, as it did every
// 1000 pages before, and the next write restarts the log.
//
// Nothing about durability changes: a commit is in the log (synchronous = NORMAL) whether or not
// a checkpoint ran, and SQLite replays the log on the next open. If the worker fails, the serving
// connection checkpoints itself again.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** Writes (statements that may write, transactions' begin and commit included) between two checkpoints asked for. */
export const WRITES_PER_CHECKPOINT = 200;

/** Pages the log may hold before the serving connection checkpoints itself (8 MB of 4 KB pages). */
export const MAX_LOG_PAGES = 2000;

/** SQLite's own threshold, restored when the worker cannot do the work. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// Plain CommonJS run by the worker (eval): the driver's path comes with it, resolved here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ ok: db.pragma('wal_checkpoint(PASSIVE)')[0] });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export class BackgroundCheckpoints {
  private worker: Worker | undefined;
  private writes = 0;
  private running = false;
  private failed = false;
  private closed = false;
  /** Told each checkpoint's outcome (tests). */
  onCheckpoint: ((result: CheckpointResult) => void) | undefined;

  constructor(private readonly database: SQLite.Database, private readonly path: string) {
    database.pragma('wal_autocheckpoint = 0');
  }

  /** Called for each statement that may write. */
  wrote(): void {
    if (this.failed || this.closed || ++this.writes < WRITES_PER_CHECKPOINT || this.running) return;
    this.checkpoint();
  }

  /** Asks the worker for a checkpoint now (started on first use: a hub that writes little never starts it). */
  checkpoint(): void {
    if (this.failed || this.closed || this.running) return;
    this.writes = 0;
    this.running = true;
    this.workerThread().postMessage('checkpoint');
  }

  private workerThread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: this.path } });
    // A worker asleep between checkpoints must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: { ok?: CheckpointResult; error?: string }) => {
      this.running = false;
      if (!answer.ok) return this.giveBack();
      this.onCheckpoint?.(answer.ok);
      if (answer.ok.log > MAX_LOG_PAGES) this.finishHere();
    });
    worker.on('error', () => this.giveBack());
    worker.on('exit', () => {
      this.worker = undefined;
      if (!this.closed) this.giveBack();
    });
    this.worker = worker;
    return worker;
  }

  /**
   * The serving connection finishes the copy. Not inside one of its transactions (a request's
   * transaction stays open across awaits, and SQLite refuses a checkpoint there): the next answer
   * of the worker tries again. A refusal is never thrown from here: the log is only a little longer.
   */
  private finishHere(): void {
    if (!this.database.open || this.database.inTransaction) return;
    try {
      this.database.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // SQLITE_LOCKED or BUSY: a later answer of the worker tries again.
    }
  }

  /** The worker could not checkpoint: the serving connection does it itself again, as SQLite does by default. */
  private giveBack(): void {
    this.running = false;
    if (this.failed || this.closed) return;
    this.failed = true;
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  /**
   * Before the serving connection closes: the worker closes its connection and ends. Resolves once
   * it has ended, so that whoever closes the database next (and removes its folder, in tests) finds
   * no other connection still closing the log and shared-memory files.
   */
  close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return Promise.resolve();
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Referenced again while it closes: the wait would otherwise not keep the process alive.
    worker.ref();
    worker.postMessage('close');
    return ended;
  }
}
