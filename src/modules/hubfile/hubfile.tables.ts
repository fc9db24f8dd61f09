import type { Id, RecordColumns } from '../../core/db/database.ts';

export interface FileTable {
  id: Id;
  name: string;
  /** MD5, hex. */
  checksum: string;
  size: number;
  feature_model_id: number;
  /** Set when the model was converted from another format (issue 27); see migrations/2026_11_27_1000_file_original.ts. */
  original_name: string | null;
  original_format: string | null;
  original_size: number | null;
  original_sha256: string | null;
  /** JSON array of the conversion's losses. */
  conversion_losses: string | null;
}

export interface FileRecordTable extends RecordColumns {
  file_id: number;
}

declare module '../../core/db/database.ts' {
  interface Database {
    file: FileTable;
    file_download_record: FileRecordTable;
    file_view_record: FileRecordTable;
  }
}
