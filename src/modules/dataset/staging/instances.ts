// Which instances are alive, for the claims of staged files (issue 37, item 9). A claim names the
// instance holding it; the instance dates its row every HEARTBEAT_MS and deletes it when it stops
// cleanly. A claim is free at once when its instance is gone: no row, a row not dated for
// INSTANCE_STALE_MS (another host's process that died), or a process of this machine (same
// kernel boot and process-id namespace) whose pid no longer runs. A restarted server is the
// last case: the dead process's claims are given back at its first listing or upload.
import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import type { Db } from '../../../core/db/connect.ts';

export const HEARTBEAT_MS = 3_000;
/** Several missed beats: a live instance whose database answered slowly is not taken for dead. */
export const INSTANCE_STALE_MS = 20_000;

/** This process's pid space, or null where the kernel does not tell (then only the heartbeat counts). */
function pidSpaceOf(): string | null {
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/${readlinkSync('/proc/self/ns/pid')}`.slice(0, 128);
  } catch {
    return null;
  }
}

const PID_SPACE = pidSpaceOf();
/** The instances of this process (tests run several): a row with this pid and another id is a dead process's (the pid reused). */
const LIVE_HERE = new Set<string>();

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process runs under that pid, only not ours to signal.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Whether the row names a process of this pid space that no longer runs (or whose pid another process took). */
function diedHere(row: { id: string; pid_space: string | null; pid: number | null }): boolean {
  if (PID_SPACE === null || row.pid_space !== PID_SPACE || row.pid === null) return false;
  return row.pid === process.pid ? !LIVE_HERE.has(row.id) : !pidRuns(row.pid);
}

export class StagingInstances {
  readonly id = randomUUID();
  private registered: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly db: Db) {}

  /** Writes this instance's row before its first claim (a claim naming no row would look dead), then dates it. */
  register(): Promise<void> {
    this.registered ??= (async () => {
      LIVE_HERE.add(this.id);
      const now = new Date();
      await this.db.insertInto('staging_instance').values({ id: this.id, pid_space: PID_SPACE, pid: process.pid, heartbeat_at: now.toISOString() }).execute();
      // Rows of instances that died long ago: their claims are free either way, the rows only take room.
      await this.db.deleteFrom('staging_instance').where('heartbeat_at', '<', new Date(now.getTime() - 10 * INSTANCE_STALE_MS).toISOString()).execute();
      if (this.stopped) return;
      this.timer = setInterval(() => {
        // A missed beat only brings the stale date closer; the next one tries again.
        this.db.updateTable('staging_instance').set({ heartbeat_at: new Date().toISOString() }).where('id', '=', this.id).execute().catch(() => {});
      }, HEARTBEAT_MS);
      this.timer.unref();
    })();
    return this.registered;
  }

  /** A clean stop: the row goes, so this instance's claims (if any were left) are free at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    LIVE_HERE.delete(this.id);
    clearInterval(this.timer);
    if (this.registered) await this.registered.then(() => this.db.deleteFrom('staging_instance').where('id', '=', this.id).execute(), () => {});
  }

  /** The instances among `ids` that are gone (their claims are free). */
  async gone(ids: string[]): Promise<Set<string>> {
    const others = [...new Set(ids)].filter((id) => id !== this.id);
    if (others.length === 0) return new Set();
    const rows = await this.db.selectFrom('staging_instance').selectAll().where('id', 'in', others).execute();
    const staleBefore = new Date(Date.now() - INSTANCE_STALE_MS).toISOString();
    const alive = new Set(rows.filter((r) => r.heartbeat_at >= staleBefore && !diedHere(r)).map((r) => r.id));
    return new Set(others.filter((id) => !alive.has(id)));
  }
}
