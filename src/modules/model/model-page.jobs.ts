// The model page's heavy work on core's scheduler (extensions section 10, "the model page's
// data"): parsing, highlighting and drawing a stored model run in a worker of the `modelpage`
// kind (model-page.worker.ts), queued per requester like every other heavy job, small models in
// the small lane. The serving thread keeps the answers (strings) by the model's SHA-256 and the
// question, so a page seen again, or polled until ready, costs no job; a job in flight is shared
// by everyone asking the same question.
import { featureEstimate } from '../../../packages/uvl/src/index.ts';
import { budgetedKind, laneOf, type Lane, type Scheduler } from '../../core/scheduler/index.ts';
import type { CrashReply } from '../../core/worker-slot.ts';
import { LruMap } from '../../core/lru-map.ts';
import type { DiagramAnomalies, DiagramQuery } from './diagram.ts';
import type { FoundFeature } from './feature-tree.ts';

interface JobBase {
  id: number;
  /** The text's SHA-256: the worker keeps its parse under it. */
  key: string;
  text: string;
}

export type ModelPageJob = JobBase & (
  | { op: 'page'; query: DiagramQuery; anomalies?: DiagramAnomalies; linkSuffix: string; title: string; inlineLines: number; featureIde: boolean }
  | { op: 'diagram'; query: DiagramQuery; anomalies?: DiagramAnomalies; title: string }
  | { op: 'lines' }
  | { op: 'features'; q: string }
);

/** A job without its id (each op's own fields kept: Omit over a union would merge them away). */
export type JobOf = ModelPageJob extends infer J ? (J extends ModelPageJob ? Omit<J, 'id'> : never) : never;

/** What the page shows of the parse: everything but the database's parts. */
export interface PageView {
  errors: string[];
  warnings: { shown: string[]; more: number };
  rootName: string | null;
  /** The depth the diagram opens at (the query's, or feature-tree.ts's opening depth). */
  depth: number | undefined;
  diagram: string | null;
  lineCount: number;
  firstLines: string[];
  featureIde: { losses: string[] } | { error: string } | null;
}

export type ModelPageReply =
  | { id: number; kind: 'page'; view: PageView }
  | { id: number; kind: 'diagram'; svg: string }
  | { id: number; kind: 'lines'; lines: string[] }
  | { id: number; kind: 'features'; features: FoundFeature[] }
  | { id: number; kind: 'syntax-errors'; errors: string[] }
  | { id: number; kind: 'query-error'; message: string }
  | { id: number; kind: 'error'; message: string };

/**
 * Heap of one worker. Measured (resident memory of the worker): automotive2_4 (18,616 features)
 * parsed, highlighted and drawn about 150 MB; the parses it keeps are bounded by their texts (16 MB).
 */
const WORKER_MEMORY_MB = 512;
/** A page's data past this is stopped: the page says so instead of holding a worker. */
export const HARD_LIMIT_MS = 60_000;

export const modelPageWorker = budgetedKind<ModelPageJob, ModelPageReply>({
  name: 'modelpage', script: new URL('./model-page.worker.ts', import.meta.url), memoryMb: WORKER_MEMORY_MB, hardLimitMs: HARD_LIMIT_MS, doing: 'reading the model',
});

type Answer = Exclude<ModelPageReply, { kind: 'page' }> | Extract<ModelPageReply, { kind: 'page' }> | CrashReply;
/** Answers kept: the page's and the drawings' strings, a few hundred KB each on the largest models. */
const KEPT_ANSWERS = 64;
const KEPT_SOURCES = 4;
/** Lanes are chosen from a count of feature lines; texts up to this size are not counted (surely small). */
const SURELY_SMALL_CHARS = 16 * 1024;

let ids = 0;

export class ModelPages {
  private readonly answers = new LruMap<string, Answer>(KEPT_ANSWERS);
  /** Whole highlighted sources, a few MB each on the largest models: only the last few models' lines. */
  private readonly sources = new LruMap<string, Answer>(KEPT_SOURCES);
  private readonly inFlight = new Map<string, Promise<Answer>>();
  /** Lanes by text key: counting feature lines of a large text is itself a few milliseconds. */
  private readonly lanes = new LruMap<string, Lane>(1000);

  constructor(private readonly scheduler: Scheduler) {}

  laneOf(key: string, text: string): Lane {
    return this.lanes.getOrMake(key, () => (text.length <= SURELY_SMALL_CHARS ? 'small' : laneOf(featureEstimate(text))));
  }

  /** The answer kept for `question` (a key naming the model and what is asked), if any. */
  known(question: string): Answer | undefined {
    return this.answers.get(question) ?? this.sources.get(question);
  }

  /** Whether a job answering `question` runs or waits now. */
  preparing(question: string): boolean {
    return this.inFlight.has(question);
  }

  /**
   * The answer to `question`: kept, or the job in flight for it, or a new job for `requester`
   * (TooManyJobs, a 429, beyond its share; with `waitForRoom` it waits for one of the requester's
   * jobs to end instead). Crash replies are not kept: asked again, it runs again.
   */
  ask(question: string, requester: string, job: JobOf, waitForRoom = false): Promise<Answer> {
    const known = this.known(question);
    if (known) return Promise.resolve(known);
    const running = this.inFlight.get(question);
    if (running) return running;
    const submit = waitForRoom ? this.scheduler.submitWhenRoom.bind(this.scheduler) : this.scheduler.submit.bind(this.scheduler);
    const submitted = submit(modelPageWorker, {
      // A share of its own beside the visitor's other heavy jobs: the page's drawings must not take
      // the configurator's turns on the same page (a configure answered 429 in the browser journeys).
      requester: `model-page:${requester}`, lane: this.laneOf(job.key, job.text), job: { ...job, id: ++ids } as ModelPageJob, hardLimitMs: HARD_LIMIT_MS, placement: job.key,
      // Its seat busy with a compile, it takes another rather than wait (the parse is made again there).
      flexible: true,
    });
    const answer = submitted.then((reply) => {
      if (reply.kind === 'lines') this.sources.set(question, reply);
      else if (reply.kind !== 'crash') this.answers.set(question, reply);
      return reply;
    }).finally(() => this.inFlight.delete(question));
    this.inFlight.set(question, answer);
    return answer;
  }
}
