export interface ApiRateLimitTable {
  /** `token:<id>`, `user:<id>` or `ip:<address>`. */
  bucket: string;
  /** The minute counted: milliseconds since the epoch divided by 60 000. */
  window_start: number;
  hits: number;
}

declare module '../../core/db/database.ts' {
  interface Database {
    api_rate_limit: ApiRateLimitTable;
  }
}
