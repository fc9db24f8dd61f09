// Messages between the configurator service and its worker threads.

export interface ModelSource {
  /** The content's key: the text's SHA-256, or for a model with imports that of the text and its imports together. */
  sha256: string;
  fileName: string;
  /** Sent only when the worker asked for it (`need-text`): a warm worker has it already. */
  text?: string;
  /** Imported files by '/'-separated path inside the dataset (null: not there), sent with the text. */
  imports?: Record<string, string | null>;
}

export type ConfiguratorOp =
  /**
   * A step by SAT propagation; counted only when the worker holds the model compiled (it never
   * compiles for a step: the answer is then `"remaining": null, "remaining_status": "not counted"`).
   * With `since` (the decisions of the state the caller holds) a consistent answer gives
   * `changed` instead of `features` (configurator.diff.ts); with `compact` (and no `since`), `states`:
   * one letter per feature in the order of the page's tree.
   */
  | { op: 'configure'; selected: string[]; deselected: string[]; why?: string; since?: { selected: string[]; deselected: string[] }; compact?: boolean }
  /** Compiles the model within the budget and keeps it warm (in the background, for the count). */
  | { op: 'compile' }
  | { op: 'commonality' }
  /** The feature tree for the page: [name, parent index (-1 for the root), group kind of its parent's group] in pre-order. */
  | { op: 'tree' }
  /** Parses the text with the imports sent so far: `need-imports` names those still to read; never kept warm. */
  | { op: 'resolve' }
  /** The names of `names` that are none of the model's features, as a step names them: `{"unknown": [...]}` in request order. */
  | { op: 'names'; names: string[] }
  | { op: 'uniform'; n: number; seed: number; selected: string[]; deselected: string[] }
  | { op: 'twise'; t: 1 | 2 | 3; seed: number };

export type ConfiguratorJob = {
  id: number; model: ModelSource; timeoutMs: number;
  /**
   * The model's compiled form is in the store (configurator.forms.ts): a worker that does not hold
   * it compiled asks for it (`need-form`) instead of compiling, and a step then counts at once.
   */
  formStored?: boolean;
  /** The stored compiled form's bytes, sent when the worker asked for them. */
  form?: Uint8Array;
  /** On a SharedArrayBuffer: set to 1 by the main thread to stop the job (a cancelled sample); the worker's deadline reads it. */
  cancel?: Int32Array;
} & ConfiguratorOp;

/** Sent by a t-wise job while it builds configurations (before its reply): interactions covered of the total known so far. */
export interface ConfiguratorProgress { id: number; kind: 'progress'; covered: number; total: number }

export type ConfiguratorReply =
  /**
   * The answer as JSON text, serialized in the worker (a commonality of a large model is tens of MB); `summary` likewise.
   * A sample comes as `sample` instead (packages/analysis sample/compact.ts, `json` empty): its JSON may pass 400 MB.
   * `form`: the compiled form's bytes when this job compiled the model, to be stored; `formRefused`:
   * the stored form sent could not be read (it is compiled again).
   */
  | { id: number; kind: 'done'; json: string; summary?: string; sample?: Uint8Array; compiled?: boolean; form?: Uint8Array; formRefused?: boolean }
  /** The worker does not hold this model: send the job again with its text. */
  | { id: number; kind: 'need-text' }
  /** The worker does not hold the model compiled and was told its form is stored: send the job again with the form. */
  | { id: number; kind: 'need-form' }
  /** The model imports files not sent yet: the main thread reads them from the dataset and asks again. */
  | { id: number; kind: 'need-imports'; paths: string[] }
  /** `bad-value`: a 400 (an unknown feature name); `failed`: the model; `budget`: not compiled within the budget. */
  | { id: number; kind: 'bad-value' | 'failed' | 'budget'; message: string };

/** The `failed` message of a job its cancel flag stopped (the main thread tells it from a job that ran to its end). */
export const SAMPLE_CANCELLED = 'The sample was cancelled.';
