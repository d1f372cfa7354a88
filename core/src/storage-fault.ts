import { RunledgerError } from './errors.js';

/**
 * Why storage cannot take a request just now (docs/operations.md, "Storage faults"):
 * - `disk_full`: the disk holding the database, the blobs or the router day files is full;
 * - `database_unreachable`: the connection to PostgreSQL was lost or cannot be made (a restart, a
 *   killed backend) before the transaction could end: nothing of it was written;
 * - `outcome_unknown`: the connection was lost while the transaction was ending, before the
 *   database said whether it was kept. It is not acknowledged; the same request, sent again, finds
 *   what was kept (a mint answers with the receipt it made).
 */
export type StorageFaultKind = 'disk_full' | 'database_unreachable' | 'outcome_unknown';

const DETAIL: Record<StorageFaultKind, string> = {
  disk_full: 'storage is full: nothing of this request was kept; try again later',
  database_unreachable:
    'the database is unreachable: nothing of this request was kept; try again later',
  outcome_unknown:
    'the database connection was lost while the change was being saved: send the same request again to learn its outcome',
};

/** Seconds a client is asked to wait before trying again (the Retry-After of the 503). */
export const STORAGE_FAULT_RETRY_AFTER_SECONDS = 1;

/**
 * A storage adapter's transient fault, answered 503 with Retry-After: the request may succeed when
 * sent again, once the disk has room or the database is back. The driver's error is its `cause`
 * (logged, never shown: it may name hosts or paths).
 */
export class StorageFaultError extends RunledgerError {
  readonly kind: StorageFaultKind;
  readonly retryAfterSeconds = STORAGE_FAULT_RETRY_AFTER_SECONDS;

  constructor(kind: StorageFaultKind, cause?: unknown) {
    super('unavailable', DETAIL[kind], { cause });
    this.name = 'StorageFaultError';
    this.kind = kind;
  }
}

export const isStorageFault = (error: unknown): error is StorageFaultError =>
  error instanceof StorageFaultError;
