// Compiles remembered (extensions sections 10 and 6a): whether a model is compiled, being
// compiled in the background, or did not compile within its budget. A failure is stored per
// (SHA-256, engine version) in model_compile_failure (migration 2026_12_05_0410), so no instance
// compiles that model again; the configurator then answers by propagation alone, at once.
import type { Db } from '../../core/db/connect.ts';
import { LruMap } from '../../core/lru-map.ts';
import { ENGINE_VERSION } from '../../../packages/analysis/src/index.ts';

export interface ModelCompileFailureTable {
  sha256: string;
  engine_version: string;
  message: string;
  created_at: string;
}

declare module '../../core/db/database.ts' {
  interface Database {
    model_compile_failure: ModelCompileFailureTable;
  }
}

/**
 * `compiled`: a worker compiled it (it may have let it go since); `compiling`: a compile runs in
 * the background; `failed`: not within the budget (stored); `unknown`: not tried yet here.
 */
export type CompileState = { state: 'compiled' | 'compiling' | 'unknown' } | { state: 'failed'; message: string };

/** Models whose compile state is kept in memory; the failures stay in the database. */
const KEPT = 2000;

export class CompileMemory {
  private readonly states = new LruMap<string, CompileState>(KEPT);

  constructor(private readonly db: Db) {}

  /** The model's state: from memory, else a stored failure, else unknown. */
  async stateOf(sha256: string): Promise<CompileState> {
    const known = this.states.get(sha256);
    if (known) return known;
    const row = await this.db.selectFrom('model_compile_failure').select('message')
      .where('sha256', '=', sha256).where('engine_version', '=', ENGINE_VERSION).executeTakeFirst();
    const state: CompileState = row ? { state: 'failed', message: row.message } : { state: 'unknown' };
    this.states.set(sha256, state);
    return state;
  }

  /** Marks a compile started; false when one runs already or the model is known failed (nothing to start). */
  begin(sha256: string): boolean {
    const known = this.states.get(sha256);
    if (known?.state === 'compiling' || known?.state === 'failed') return false;
    this.states.set(sha256, { state: 'compiling' });
    return true;
  }

  set(sha256: string, state: CompileState): void {
    this.states.set(sha256, state);
  }

  /** Stores a failure (budget, memory, overrun): no instance compiles this content with this engine again. */
  async fail(sha256: string, message: string): Promise<void> {
    this.states.set(sha256, { state: 'failed', message });
    const exists = await this.db.selectFrom('model_compile_failure').select('sha256')
      .where('sha256', '=', sha256).where('engine_version', '=', ENGINE_VERSION).executeTakeFirst();
    if (exists) return;
    try {
      await this.db.insertInto('model_compile_failure')
        .values({ sha256, engine_version: ENGINE_VERSION, message, created_at: new Date().toISOString() }).execute();
    } catch (error) {
      // Another instance stored the same failure meanwhile (the primary key): the row is there, as wanted.
      const again = await this.db.selectFrom('model_compile_failure').select('sha256')
        .where('sha256', '=', sha256).where('engine_version', '=', ENGINE_VERSION).executeTakeFirst();
      if (!again) throw error;
    }
  }
}
