// Messages between the analysis service and its worker threads.
import type { AnalysisResult } from '../../../packages/analysis/src/index.ts';

export interface WorkerJob {
  id: number;
  fileName: string;
  text: string;
  /** Imported files read so far, by '/'-separated path inside the dataset; null: not there. */
  imports: Record<string, string | null>;
  round: number;
  maxRounds: number;
  timeoutMs: number;
}

export type WorkerReply =
  | { kind: 'need'; id: number; paths: string[] }
  | { kind: 'invalid'; id: number; errors: string[] }
  | { kind: 'done'; id: number; result: AnalysisResult; names: string[] }
  | { kind: 'error'; id: number; message: string };
