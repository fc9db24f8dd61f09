// One scheduler for all heavy work (extensions section 10): worker threads in seats, jobs queued
// per requester and taken round robin across requesters, at most `perRequester` jobs of one
// requester queued or running, and a lane of its own for small models so that they never queue
// behind large ones. Modules define kinds of worker (script, memory budget, crash wording) and
// submit jobs; a seat runs one job at a time and starts a kind's worker the first time it needs it.
import { WorkerSlot, type CrashReply, type WorkerSlotOptions } from '../worker-slot.ts';

/** `small`: a model of at most SMALL_MODEL_FEATURES features (or work as light); `large`: the rest. */
export type Lane = 'small' | 'large';
export const SMALL_MODEL_FEATURES = 1000;

export function laneOf(features: number): Lane {
  return features <= SMALL_MODEL_FEATURES ? 'small' : 'large';
}

export interface SchedulerOptions {
  /** Jobs of one requester queued or running at once; one more is refused (TooManyJobs). */
  perRequester: number;
  /** Seats (worker threads running at once) per lane. */
  seats: Record<Lane, number>;
  /**
   * The large lane's memory (HEAVY_MEMORY_MB): the budgets (`memoryMb`) of its live workers, busy
   * or kept idle, add up to at most this; a job whose worker does not fit waits, idle workers are
   * stopped to make room. A kind over it alone runs only when the lane holds no other worker.
   */
  memoryMb?: number;
  /**
   * Of a requester's `perRequester` jobs, at most this many may be `background` ones (default
   * half, at least 1), so that a page's own work never takes the whole share.
   */
  backgroundShare?: number;
}

/** A requester already has its share of jobs queued or running: the answer is 429. */
export class TooManyJobs extends Error {
  constructor(readonly limit: number, readonly retryAfterS: number) {
    super(`Too many heavy requests at once: at most ${limit} per requester are queued or running. Try again in ${retryAfterS} s.`);
  }
}

/** A kind of worker, as defined by a module; its jobs are messages with an id. */
export interface WorkerKind<Job extends { id: number }, Reply extends { id: number }, Progress extends { id: number } = never> {
  readonly name: string;
  readonly options: WorkerSlotOptions<Job, Reply, Progress>;
  /** The most memory one worker of the kind takes (its heap limits and what V8 holds beside): counted against SchedulerOptions.memoryMb. */
  readonly memoryMb?: number;
}

export interface Submission<Job, Progress> {
  /** The account id when signed in, else the client address; the fair queues are by this key. */
  requester: string;
  lane: Lane;
  job: Job;
  /** From the job's start: past it its worker is stopped (a worker that stopped checking its own deadline). */
  hardLimitMs: number;
  onProgress?: (message: Progress) => void;
  /**
   * Jobs with the same key go to the same seat (a worker keeps what it computed for that key,
   * e.g. a compiled model), and wait for it, unless `flexible` and the seat runs a `long` job.
   */
  placement?: string;
  flexible?: boolean;
  /** A job that may take its whole budget (a compile): flexible jobs do not wait behind it. */
  long?: boolean;
  /**
   * The page's own work rather than what the person asked for (the upload page's checks of the
   * files it stages and lists): it counts in the requester's share like every job, but takes at
   * most `backgroundShare` of it, so that the person's next request (a configure step, the upload
   * itself) is not refused because of it. Its waits (submitWhenRoom) have places of their own.
   */
  background?: boolean;
}

interface Queued {
  submission: Submission<any, any>;
  kind: WorkerKind<any, any, any>;
  resolve: (reply: unknown) => void;
  /** Set once answered: a job stopped by stopKind is answered before its worker's exit is. */
  settled?: boolean;
}

interface Seat {
  lane: Lane;
  index: number;
  busy: (Queued & { requester: string }) | undefined;
  workers: Map<string, WorkerSlot<any, any, any>>;
}

/** Seconds a refused requester is told to wait: about one short job. */
const RETRY_AFTER_S = 2;

/** A submitWhenRoom call waiting for one of its requester's jobs to end. */
interface Waiter {
  background: boolean;
  wake: () => void;
}

export class Scheduler {
  private readonly seats: Record<Lane, Seat[]>;
  /** Per lane, the queues by requester. */
  private readonly queues: Record<Lane, Map<string, Queued[]>> = { small: new Map(), large: new Map() };
  private readonly held = new Map<string, number>();
  /** Of `held`, the background jobs (Submission.background). */
  private readonly heldInBackground = new Map<string, number>();
  /** Per requester holding jobs, the turn it was last served at (a count); forgotten when it holds none. */
  private readonly lastTurn = new Map<string, number>();
  private turns = 0;
  /** The memory budget of each kind seen, by name (the kinds' own `memoryMb`). */
  private readonly budgets = new Map<string, number>();
  /** Per requester, submitWhenRoom calls waiting for one of its jobs to end, in the order they came. */
  private readonly waiters = new Map<string, Waiter[]>();
  private closedMessage: string | undefined;
  /** Jobs started, and per lane jobs ended: counts for tests and the bench (an order, not a time). */
  started = 0;
  readonly ended: Record<Lane, number> = { small: 0, large: 0 };

  constructor(private readonly options: SchedulerOptions) {
    const seatsOf = (lane: Lane) => Array.from({ length: Math.max(1, options.seats[lane]) }, (_, index): Seat => ({ lane, index, busy: undefined, workers: new Map() }));
    this.seats = { small: seatsOf('small'), large: seatsOf('large') };
  }

  /** Set by close(): a crash reply then says the server stops, which is no verdict on the job's work. */
  get closed(): boolean {
    return this.closedMessage !== undefined;
  }

  /** The jobs of `requester` queued or running now. */
  heldBy(requester: string): number {
    return this.held.get(requester) ?? 0;
  }

  /** Of them, the background ones. */
  heldInBackgroundBy(requester: string): number {
    return this.heldInBackground.get(requester) ?? 0;
  }

  /** The most background jobs one requester holds at once. */
  get backgroundShare(): number {
    return Math.max(1, Math.min(this.options.perRequester, this.options.backgroundShare ?? Math.floor(this.options.perRequester / 2)));
  }

  /** Jobs waiting in a lane (all requesters). */
  queued(lane: Lane): number {
    let n = 0;
    for (const q of this.queues[lane].values()) n += q.length;
    return n;
  }

  /** Whether the requester may submit `n` more jobs now (background ones: within the background share too). */
  hasRoom(requester: string, n = 1, background = false): boolean {
    return this.heldBy(requester) + n <= this.options.perRequester
      && (!background || this.heldInBackgroundBy(requester) + n <= this.backgroundShare);
  }

  /**
   * Queues a job; it answers its worker's reply, or a crash reply (failure, exit, overrun, close).
   * Throws TooManyJobs at once when the requester already holds its share.
   */
  submit<Job extends { id: number }, Reply extends { id: number }, Progress extends { id: number }>(
    kind: WorkerKind<Job, Reply, Progress>, submission: Submission<Job, Progress>,
  ): Promise<Reply | CrashReply> {
    if (this.closedMessage !== undefined) return Promise.resolve({ kind: 'crash', id: submission.job.id, message: this.closedMessage, cause: 'stopped' });
    if (!this.hasRoom(submission.requester, 1, submission.background)) throw new TooManyJobs(this.options.perRequester, RETRY_AFTER_S);
    this.held.set(submission.requester, this.heldBy(submission.requester) + 1);
    if (submission.background) this.heldInBackground.set(submission.requester, this.heldInBackgroundBy(submission.requester) + 1);
    return new Promise((resolve) => {
      const queues = this.queues[submission.lane];
      const mine = queues.get(submission.requester) ?? [];
      mine.push({ submission, kind, resolve: resolve as (reply: unknown) => void });
      queues.set(submission.requester, mine);
      this.pump(submission.lane);
    });
  }

  /**
   * As submit, but waits for room instead of refusing: for work a request cannot do without and
   * that comes in bursts from one requester (the upload page's list of staged conversions). At most
   * `perRequester` calls wait per requester, and as many background ones; beyond them it throws
   * TooManyJobs as submit does.
   */
  async submitWhenRoom<Job extends { id: number }, Reply extends { id: number }, Progress extends { id: number }>(
    kind: WorkerKind<Job, Reply, Progress>, submission: Submission<Job, Progress>,
  ): Promise<Reply | CrashReply> {
    const { requester } = submission;
    const background = submission.background === true;
    while (this.closedMessage === undefined && !this.hasRoom(requester, 1, background)) {
      // Waiting is bounded as the share is: beyond as many waiting calls as jobs held, a 429, so
      // that one requester's burst of requests cannot pile up held connections without end. The
      // page's own waits are counted apart: they must not take the places of the person's requests.
      const waiting = this.waiters.get(requester) ?? [];
      if (waiting.filter((w) => w.background === background).length >= this.options.perRequester) {
        throw new TooManyJobs(this.options.perRequester, RETRY_AFTER_S);
      }
      await new Promise<void>((wake) => this.waiters.set(requester, [...waiting, { background, wake }]));
    }
    return this.submit(kind, submission);
  }

  /**
   * Ends the jobs of one kind (a module stops): running ones answer a crash saying `message` and
   * their workers are replaced, queued ones answer it at once; other kinds go on.
   */
  stopKind(name: string, message: string): void {
    for (const lane of ['small', 'large'] as const) {
      for (const [requester, queue] of this.queues[lane]) {
        const kept = queue.filter((q) => q.kind.name !== name);
        for (const q of queue) if (q.kind.name === name) this.finish(requester, q, { kind: 'crash', id: q.submission.job.id, message, cause: 'stopped' });
        if (kept.length > 0) this.queues[lane].set(requester, kept);
        else this.queues[lane].delete(requester);
      }
      for (const seat of this.seats[lane]) {
        const running = seat.busy;
        if (running?.kind.name !== name) continue;
        this.finish(running.requester, running, { kind: 'crash', id: running.submission.job.id, message, cause: 'stopped' });
        // Closed, so that a job it has not begun yet does not start its worker; the next job of the kind starts another.
        seat.workers.get(name)?.close(message);
        seat.workers.delete(name);
      }
    }
  }

  /** For good (the app closes): workers stop, queued jobs answer a crash saying `message`. */
  close(message = 'The server is stopping.'): void {
    this.closedMessage = message;
    for (const lane of ['small', 'large'] as const) {
      for (const [requester, queue] of this.queues[lane]) {
        for (const q of queue) this.finish(requester, q, { kind: 'crash', id: q.submission.job.id, message, cause: 'stopped' });
      }
      this.queues[lane].clear();
      for (const seat of this.seats[lane]) for (const w of seat.workers.values()) w.close(message);
    }
    for (const waiting of this.waiters.values()) for (const w of waiting) w.wake();
    this.waiters.clear();
  }

  /** Starts queued jobs while a seat fits one: requesters in turn, each one's jobs in order. */
  private pump(lane: Lane): void {
    for (;;) {
      const next = this.pickNext(lane);
      if (!next) return;
      this.start(next.seat, next.requester, next.queued);
    }
  }

  /**
   * The requester served least recently (a new one first) whose next job has a seat now: the
   * turns go round robin, and a requester whose job waits for its own seat does not hold up others.
   */
  private pickNext(lane: Lane): { seat: Seat; requester: string; queued: Queued } | undefined {
    let best: { seat: Seat; requester: string; queue: Queued[]; turn: number } | undefined;
    for (const [requester, queue] of this.queues[lane]) {
      const turn = this.lastTurn.get(requester) ?? 0;
      if (best && best.turn <= turn) continue;
      const seat = this.seatFor(lane, queue[0]!.submission);
      if (seat && this.fitsMemory(seat, queue[0]!.kind)) best = { seat, requester, queue, turn };
    }
    if (!best) return undefined;
    const queued = best.queue.shift()!;
    if (best.queue.length === 0) this.queues[lane].delete(best.requester);
    this.lastTurn.set(best.requester, ++this.turns);
    return { seat: best.seat, requester: best.requester, queued };
  }

  /** A free seat for the job: its placement's seat, or with `flexible` any free one while that seat runs a long job. */
  private seatFor(lane: Lane, submission: Submission<unknown, unknown>): Seat | undefined {
    const seats = this.seats[lane];
    if (submission.placement === undefined) return seats.find((s) => !s.busy);
    const own = seats[placementIndex(submission.placement, seats.length)]!;
    if (!own.busy) return own;
    return submission.flexible && own.busy.submission.long ? seats.find((s) => !s.busy) : undefined;
  }

  private start(seat: Seat, requester: string, queued: Queued): void {
    seat.busy = { ...queued, requester };
    this.started++;
    const { kind, submission } = queued;
    this.makeRoom(seat, kind);
    let worker = seat.workers.get(kind.name);
    if (!worker) {
      worker = new WorkerSlot(kind.options);
      seat.workers.set(kind.name, worker);
    }
    const message = (error: unknown): CrashReply => ({ kind: 'crash', id: submission.job.id, message: `The job could not be sent to its worker: ${String(error)}`, cause: 'error' });
    void worker.run(submission.job, submission.hardLimitMs, submission.onProgress).catch(message).then((reply) => {
      const running = seat.busy!;
      // A worker closed by close() answers as its exit: said as what it is, the server stopping.
      if (this.closedMessage !== undefined && reply.kind === 'crash') reply = { ...reply, cause: 'stopped' };
      seat.busy = undefined;
      this.ended[seat.lane]++;
      this.finish(requester, running, reply);
      if (this.closedMessage === undefined) this.pump(seat.lane);
    });
  }

  /** The budgets of the large lane's live workers; with `idleOnly`, only those no job uses now (other than `except`'s kind on its seat). */
  private liveMemoryMb(idleOnly: boolean, except?: { seat: Seat; kind: string }): number {
    let mb = 0;
    for (const seat of this.seats.large) {
      for (const [name, worker] of seat.workers) {
        const busy = seat.busy?.kind.name === name;
        // A busy seat's worker counts before its thread is up (the slot starts it a tick later).
        if (!(worker.alive || busy) || (except && seat === except.seat && name === except.kind)) continue;
        if (idleOnly && busy) continue;
        mb += this.budgets.get(name) ?? 0;
      }
    }
    return mb;
  }

  /** Whether a job of `kind` may start on `seat` now: its worker is up there, or its budget fits once idle workers are stopped. */
  private fitsMemory(seat: Seat, kind: WorkerKind<any, any, any>): boolean {
    const limit = this.options.memoryMb;
    if (limit === undefined || seat.lane !== 'large') return true;
    this.budgets.set(kind.name, kind.memoryMb ?? 0);
    if (seat.workers.get(kind.name)?.alive) return true;
    const held = this.liveMemoryMb(false) - this.liveMemoryMb(true, { seat, kind: kind.name });
    // A kind over the whole budget still runs, alone: refusing it would stall its jobs for good.
    return held === 0 || held + (kind.memoryMb ?? 0) <= limit;
  }

  /** Stops idle workers of the large lane (other kinds on `seat` first, then other seats') until `kind`'s worker fits. */
  private makeRoom(seat: Seat, kind: WorkerKind<any, any, any>): void {
    const limit = this.options.memoryMb;
    if (limit === undefined || seat.lane !== 'large' || seat.workers.get(kind.name)?.alive) return;
    const need = kind.memoryMb ?? 0;
    for (const other of [seat, ...this.seats.large.filter((s) => s !== seat)]) {
      for (const [name, worker] of other.workers) {
        if (this.liveMemoryMb(false) + need <= limit) return;
        if (!worker.alive || other.busy?.kind.name === name || (other === seat && name === kind.name)) continue;
        worker.close('Stopped to give its memory to another job.');
        other.workers.delete(name);
      }
    }
  }

  private finish(requester: string, queued: Queued, reply: unknown): void {
    if (queued.settled) return;
    queued.settled = true;
    const left = this.heldBy(requester) - 1;
    if (left > 0) this.held.set(requester, left);
    else {
      this.held.delete(requester);
      this.lastTurn.delete(requester);
    }
    if (queued.submission.background) {
      const background = this.heldInBackgroundBy(requester) - 1;
      if (background > 0) this.heldInBackground.set(requester, background);
      else this.heldInBackground.delete(requester);
    }
    queued.resolve(reply);
    // Every waiting call looks again, in the order they came: the first that has room now goes (a
    // background one may still have none while a call after it does), the others wait again, in
    // their order. Their continuations run in this order, each checking and submitting at once.
    const waiting = this.waiters.get(requester);
    this.waiters.delete(requester);
    for (const w of waiting ?? []) w.wake();
  }
}

/** The seat of a placement key: a hex hash's first 8 digits, else a string hash. */
export function placementIndex(key: string, seats: number): number {
  const hex = /^[0-9a-f]{8}/i.test(key) ? parseInt(key.slice(0, 8), 16) : [...key].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
  return hex % seats;
}
