// The configurator module's tables: samples and commonality per content (migrations 2026_11_27_1100,
// 2026_12_05_0420, 2026_12_05_0450), shared configurations (migration 2026_12_05_0445).
import type { Id } from '../../core/db/database.ts';

/** `running`: claimed by an instance, shown as `pending`; `failed` keeps its message. */
export type SampleStatus = 'running' | 'done' | 'failed';

export interface ModelSampleTable {
  id: Id;
  sha256: string;
  kind: string;
  params: string;
  engine_version: string;
  status: SampleStatus;
  /** The answer as JSON (done): the commonality, or a sample that could not be packed. */
  result: string | null;
  /** A sample (done): the file store's key of its packed form (packages/analysis sample/compact.ts). */
  stored_key: string | null;
  /** Commonality: `{"<name>": probability}` as JSON, for the page (the result holds huge exact counts). */
  summary: string | null;
  error: string | null;
  /**
   * A sample's weight against SAMPLE_STORE_MAX_BYTES (done or failed): its packed object's size, or
   * its JSON or message in the row, plus ROW_BYTES; null for the commonality and while running.
   */
  stored_bytes: number | null;
  /** When the sample was last served (at most a minute old when served lately): the cleanup deletes the oldest first. */
  last_used_at: string | null;
  claimed_by: string | null;
  claimed_at: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A configuration stored for a short address; the key is derived from the file and the decisions. */
export interface SharedConfigurationTable {
  share_key: string;
  file_id: number;
  /** `{"selected": [...], "deselected": [...]}` as JSON. */
  decisions: string;
  created_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    model_sample: ModelSampleTable;
    shared_configuration: SharedConfigurationTable;
  }
}
