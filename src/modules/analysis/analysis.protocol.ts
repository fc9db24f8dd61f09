// Messages between the analysis service and its worker threads.
import type { AnalysisResult, OperationName } from '../../../packages/analysis/src/index.ts';

export interface WorkerJob {
  kind?: 'analyse';
  id: number;
  fileName: string;
  text: string;
  /** Imported files read so far, by '/'-separated path inside the dataset; null: not there. */
  imports: Record<string, string | null>;
  round: number;
  maxRounds: number;
  timeoutMs: number;
}

/** The edit class between two versions of a model (extensions section 2), decided within `timeoutMs`. */
export interface ClassifyJob {
  kind: 'classify';
  id: number;
  before: { fileName: string; text: string };
  after: { fileName: string; text: string };
  timeoutMs: number;
}

export interface ClassifyReply {
  kind: 'classified';
  id: number;
  /** `unknown`: the budget ran out; `invalid`: a version could not be read as UVL (imports are not followed). */
  editKind: 'refactoring' | 'generalization' | 'specialization' | 'arbitrary' | 'unknown' | 'invalid';
}

/** A result so far, sent while the analysis goes on (the job's final reply follows). */
export interface ProgressMessage {
  kind: 'progress';
  id: number;
  result: AnalysisResult;
  running: OperationName[];
}

export type WorkerReply =
  | { kind: 'need'; id: number; paths: string[] }
  | { kind: 'invalid'; id: number; errors: string[] }
  | { kind: 'done'; id: number; result: AnalysisResult; names: string[] }
  | { kind: 'error'; id: number; message: string };
