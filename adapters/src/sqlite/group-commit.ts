import { StorageFaultError } from '@runledger/core';
import type { Sql } from '../sql/sql.js';
import { scoped } from '../sql/sql.js';
import { handedOver, type CloseWith } from '../sql/write-transaction.js';

interface Pending {
  fn: (sql: Sql, closeWith: CloseWith) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Told of each committed batch: how many transactions it held and seconds from BEGIN to COMMIT. */
export type BatchObserver = (transactions: number, seconds: number) => void;

/** Enough to amortize one fsync widely; small enough that one batch never holds the writer long. */
const MAX_BATCH = 256;

/**
 * SQLite's one writer, with group commit: write transactions that arrive while a batch commits wait
 * and go together into the next one. Each runs in its own SAVEPOINT, one after another, inside one
 * BEGIN IMMEDIATE … COMMIT, so a throw rolls back that transaction alone while later ones in the batch
 * see earlier ones' writes (mints of one org chain in arrival order). Nobody is answered before the
 * batch's COMMIT returns, and with synchronous=FULL that COMMIT is the batch's one fsync.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;
  /** Batches committed and transactions in them, for tests and the bench. */
  readonly stats = { batches: 0, transactions: 0 };

  constructor(
    private readonly sql: Sql,
    private readonly onBatch: BatchObserver = () => undefined,
  ) {}

  submit<T>(fn: (sql: Sql, closeWith: CloseWith) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('storage is closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      // setImmediate, not a microtask: requests parsed in the same I/O turn join the first batch.
      this.draining ??= new Promise<void>((started) => setImmediate(started)).then(() =>
        this.drain(),
      );
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      await this.commit(batch);
    }
    this.draining = null;
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const started = process.hrtime.bigint();
    try {
      await this.sql.run('BEGIN IMMEDIATE');
      for (const pending of batch) outcomes.push(await this.savepoint(pending));
      await this.sql.run('COMMIT');
    } catch (error) {
      // The batch itself failed (BEGIN, a savepoint's own statements, or COMMIT): nothing is durable.
      await this.sql.run('ROLLBACK').catch(() => undefined);
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.stats.batches += 1;
    this.stats.transactions += batch.length;
    this.onBatch(batch.length, Number(process.hrtime.bigint() - started) / 1e9);
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** Runs one transaction in its savepoint; its own throw is its outcome, a savepoint failure is the batch's. */
  private async savepoint(pending: Pending): Promise<Outcome> {
    const handle = scoped(this.sql);
    // closeWith: a statement has run to completion when sent, so nothing goes out with RELEASE. A
    // failed statement fails the transaction with its error; else a handed-over statement that
    // rejects (a guarded update that missed) fails it with its own rejection, as on PostgreSQL.
    const handed = handedOver();
    await this.sql.run('SAVEPOINT tx');
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await pending.fn(handle.sql, handed.closeWith) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await handle.end();
    // A statement that failed fails its transaction, caught by fn or not (as on PostgreSQL).
    const failure = handle.failure();
    const failed = outcome.ok ? (failure ?? (await handed.rejection())) : null;
    if (failed !== null) outcome = { ok: false, error: failed.error };
    // A full disk may have rolled back the whole batch (SQLite's automatic rollback after
    // SQLITE_FULL), not just this savepoint: the batch fails, none of it acknowledged.
    if (!outcome.ok && outcome.error instanceof StorageFaultError) throw outcome.error;
    // RELEASE keeps savepoints one deep: nested ones would journal each page once per level.
    if (!outcome.ok) await this.sql.run('ROLLBACK TO tx');
    await this.sql.run('RELEASE tx');
    return outcome;
  }

  /** Commits what is queued, then refuses new work. */
  async close(): Promise<void> {
    this.closed = true;
    await this.draining;
  }
}
