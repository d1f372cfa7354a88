import { StorageFaultError } from '@runledger/core';
import type { Settled } from '@runledger/core/ports';
import { BatchQueue } from '../batching/queue.js';
import type { Sql } from '../sql/sql.js';
import { scoped } from '../sql/sql.js';
import { endingWrites, type EndWith } from '../sql/write-transaction.js';
import type { Checkpointer } from './checkpointer.js';
import type { DurableCommits } from './durable-commits.js';

type Transaction = (sql: Sql, endWith: EndWith) => Promise<unknown>;

type Outcome = Settled<unknown>;

/**
 * Told of each committed batch: how many transactions it held, the seconds from BEGIN to durable,
 * and the seconds of those the write-ahead log's sync took (the disk's part).
 */
export type BatchObserver = (transactions: number, seconds: number, syncSeconds: number) => void;

/**
 * What the writer keeps beside the database (merkle-tails.ts), told where each batch and savepoint
 * ends so it keeps only what committed. `began` runs right after BEGIN IMMEDIATE, under the lock.
 */
export interface BatchFollower {
  began(): Promise<void>;
  savepointEnded(kept: boolean): void;
  batchEnded(committed: boolean): void;
}

/** Enough to amortize one fsync widely; small enough that one batch never holds the writer long. */
export const MAX_GROUP_COMMIT = 256;

/**
 * SQLite's one writer, with group commit: write transactions that arrive while a batch commits wait
 * and go together into the next one (storage's one batching queue, batching/queue.ts, started a
 * turn late so requests parsed in the same I/O turn join the first batch). Each runs in its own
 * SAVEPOINT, one after another, inside one BEGIN IMMEDIATE … COMMIT, so a throw rolls back that
 * transaction alone while later ones in the batch see earlier ones' writes (mints of one org chain
 * in arrival order). Nobody is answered before the batch is durable: its COMMIT, then one fsync
 * of the log off the event loop (durable-commits.ts); the next batch starts after that, and a
 * checkpoint may start on its worker thread (checkpointer.ts). When that checkpoint is one the log
 * needs to restart, the next batch starts only once it has settled.
 */
export class GroupCommit {
  private readonly queue: BatchQueue<Transaction, unknown>;
  private checkpointPause: Promise<void> | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly commits: Pick<DurableCommits, 'commit'>,
    private readonly checkpointer: Pick<Checkpointer, 'request'>,
    private readonly follower: BatchFollower,
    private readonly onBatch: BatchObserver = () => undefined,
    maxTransactions = MAX_GROUP_COMMIT,
  ) {
    this.queue = new BatchQueue({ max: maxTransactions, start: 'turn' }, (_key, batch) =>
      this.commit(batch),
    );
  }

  /** Batches committed and transactions in them, for tests and the bench. */
  get stats(): { batches: number; transactions: number } {
    return { batches: this.queue.stats.batches, transactions: this.queue.stats.asks };
  }

  submit<T>(fn: (sql: Sql, endWith: EndWith) => Promise<T>): Promise<T> {
    return this.queue.submit('writer', fn) as Promise<T>;
  }

  /** The batch's savepoints inside one BEGIN IMMEDIATE … COMMIT; a throw fails the whole batch. */
  private async commit(batch: readonly Transaction[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    if (this.checkpointPause !== null) await this.checkpointPause;
    const started = process.hrtime.bigint();
    let syncSeconds: number;
    try {
      await this.sql.run('BEGIN IMMEDIATE');
      await this.follower.began();
      for (const fn of batch) outcomes.push(await this.savepoint(fn));
      syncSeconds = await this.commits.commit(() => this.sql.run('COMMIT'));
    } catch (error) {
      // The batch itself failed (BEGIN, a savepoint's own statements, COMMIT or the log's sync):
      // nobody is answered that it is durable.
      this.follower.batchEnded(false);
      await this.sql.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
    this.follower.batchEnded(true);
    this.onBatch(batch.length, Number(process.hrtime.bigint() - started) / 1e9, syncSeconds);
    const pause = this.checkpointer.request();
    if (pause !== null) this.checkpointPause = pause.then(() => void (this.checkpointPause = null));
    return outcomes;
  }

  /** Runs one transaction in its savepoint; its own throw is its outcome, a savepoint failure is the batch's. */
  private async savepoint(fn: Transaction): Promise<Outcome> {
    const handle = scoped(this.sql);
    // Ending writes (endWith): a statement has run to completion when sent, so nothing goes out with
    // RELEASE. A failed statement fails the transaction with its error; else an ending write that
    // rejects (a guarded update that missed) fails it with its own rejection, as on PostgreSQL.
    const ending = endingWrites();
    await this.sql.run('SAVEPOINT tx');
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await fn(handle.sql, ending.endWith) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await handle.end();
    // A statement that failed fails its transaction, caught by fn or not (as on PostgreSQL).
    const failure = handle.failure();
    const failed = outcome.ok ? (failure ?? (await ending.rejection())) : null;
    if (failed !== null) outcome = { ok: false, error: failed.error };
    // A full disk may have rolled back the whole batch (SQLite's automatic rollback after
    // SQLITE_FULL), not just this savepoint: the batch fails, none of it acknowledged.
    if (!outcome.ok && outcome.error instanceof StorageFaultError) throw outcome.error;
    // RELEASE keeps savepoints one deep: nested ones would journal each page once per level.
    if (!outcome.ok) await this.sql.run('ROLLBACK TO tx');
    await this.sql.run('RELEASE tx');
    this.follower.savepointEnded(outcome.ok);
    return outcome;
  }

  /** Commits what is queued, then refuses new work. */
  close(): Promise<void> {
    return this.queue.close();
  }
}
