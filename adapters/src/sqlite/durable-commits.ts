import { open, type FileHandle } from 'node:fs/promises';
import { StorageFaultError } from '@runledger/core';

/** Makes the write-ahead log's written frames durable (fdatasync on a libuv pool thread). */
export type WalSync = (wal: FileHandle) => Promise<void>;

const datasync: WalSync = (wal) => wal.datasync();

/**
 * The writer's commits, durable before anyone sees them, with the fsync off the event loop. The
 * writer connection runs with synchronous=NORMAL, so its COMMIT writes the batch's frames to the
 * write-ahead log without syncing them; `commit` then syncs the log file on a pool thread while
 * the event loop serves requests. A commit is held from just before its COMMIT until that sync
 * has returned: a read meanwhile runs on a snapshot taken before the COMMIT or waits while it is
 * `pending` (read-pool.ts), and the next batch starts only once the commit has returned, so no
 * reader, writer or answer ever sees a write that a power loss could take back (what
 * synchronous=FULL gave, with the fsync on the event loop).
 *
 * A failed sync leaves committed frames whose durability is unknown (the kernel may have dropped
 * the dirty pages, so a later sync that succeeds proves nothing): that batch fails as
 * `outcome_unknown`, and every later commit as `database_unreachable` before it writes anything,
 * until a restart recovers the database from what the log file holds.
 */
export class DurableCommits {
  private holding: Promise<void> | null = null;
  private readonly listeners: { before: () => void; after: () => void }[] = [];
  private wal: FileHandle | null = null;
  private broken: Error | null = null;

  constructor(
    private readonly walFile: string,
    private readonly sync: WalSync = datasync,
  ) {}

  /**
   * Runs `commit` (the batch's COMMIT), then syncs the log; held meanwhile (`pending`). Resolves
   * with the seconds the sync took: the disk's part of the commit.
   */
  async commit(commit: () => Promise<unknown>): Promise<number> {
    if (this.broken !== null) throw new StorageFaultError('database_unreachable', this.broken);
    let release = (): void => undefined;
    this.holding = new Promise<void>((resolve) => (release = resolve));
    for (const listener of this.listeners) listener.before();
    try {
      await commit();
      return await this.syncLog();
    } finally {
      this.holding = null;
      for (const listener of this.listeners) listener.after();
      release();
    }
  }

  /** At each commit: `before` once it is held, just before its COMMIT; `after` as it is let go. */
  aroundEachCommit(before: () => void, after: () => void): void {
    this.listeners.push({ before, after });
  }

  /**
   * The commit between its COMMIT and the end of its sync, if one is. A reader loops until this is
   * null and then takes its snapshot without awaiting anything in between (read-pool.ts).
   */
  get pending(): Promise<void> | null {
    return this.holding;
  }

  async close(): Promise<void> {
    while (this.holding !== null) await this.holding;
    await this.wal?.close();
    this.wal = null;
  }

  /** Syncs the log; the seconds the sync itself took (opening the file once is not counted). */
  private async syncLog(): Promise<number> {
    try {
      // The log file exists once the first commit has written to it; it is never replaced while
      // the writer is open (SQLite rewrites it in place after a checkpoint).
      this.wal ??= await open(this.walFile, 'r');
      const started = process.hrtime.bigint();
      await this.sync(this.wal);
      return Number(process.hrtime.bigint() - started) / 1e9;
    } catch (error) {
      this.broken = error instanceof Error ? error : new Error(String(error));
      throw new StorageFaultError('outcome_unknown', error);
    }
  }
}
