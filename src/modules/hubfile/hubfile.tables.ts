import type { Id, RecordColumns } from '../../core/db/database.ts';

export interface FileTable {
  id: Id;
  name: string;
  /** MD5, hex. */
  checksum: string;
  size: number;
  feature_model_id: number;
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
