import { lockKeys } from '../ports/lock-keys.js';
import type {
  AuditReceiptRecord,
  ChainHead,
  SignInFailureWindow,
  WriteTransaction,
} from '../ports/storage.js';
import type { AuditActor, AuditEvent } from '../schemas/audit-receipt.js';
import type { Actor } from '../actor.js';
import { receiptLeaf } from '@runledger/verify';
import { appendLeaf, appendLeaves, treeSize } from '../checkpoints/tree.js';
import { AUDIT_LOG, buildAuditReceipt } from './build.js';

/**
 * Failed sign-ins are counted per organization in fixed windows of this length (aligned to the
 * Unix epoch) and written as one `sign_in.failed` receipt per window (docs/audit.md).
 */
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60_000;

const ANONYMOUS: AuditActor = { kind: 'anonymous', id: null };

/** The audit actor of a caller: a person by user id, an API key by key id. */
export function auditActor(actor: Actor): AuditActor {
  return actor.kind === 'user'
    ? { kind: 'user', id: actor.userId }
    : { kind: 'api_key', id: actor.keyId };
}

/** The start of the failure window `now` falls in. */
export function failureWindowOf(now: Date): string {
  const ms = now.getTime();
  return new Date(ms - (ms % SIGN_IN_FAILURE_WINDOW_MS)).toISOString();
}

/**
 * Appends one audit receipt after `head`, its leaf joining the `audit` tree of `stored` leaves, the
 * two reads the caller made together under the audit chain lock.
 */
async function appendAfter(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
  head: ChainHead | null,
  stored: number,
): Promise<AuditReceiptRecord> {
  const built = buildAuditReceipt({ head, orgId, actor, event, now });
  const record: AuditReceiptRecord = {
    receipt_id: built.receipt_id,
    org_id: orgId,
    org_seq: built.org_seq,
    event_type: event.type,
    parent_hash: built.parent_hash,
    receipt_sha256: built.receipt_sha256,
    payload_text: built.payload_text,
    created_at: built.payload.minted_at,
  };
  await Promise.all([tx.auditReceipts.insert(record), appendAuditLeaf(tx, record, stored)]);
  return record;
}

/** Reads the audit chain's head and the size of its tree together, then appends after them. */
async function append(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  const [head, stored] = await Promise.all([
    tx.auditReceipts.head(orgId),
    treeSize(tx, orgId, AUDIT_LOG),
  ]);
  return appendAfter(tx, orgId, actor, event, now, head, stored);
}

/** Rows per catch-up append (see appendAuditLeaf). */
const CATCH_UP_CHUNK = 500;

/**
 * Leaf i of the org's `audit` tree is its audit receipt org_seq i, appended in the receipt's
 * transaction under the audit chain lock (the lock that orders this log). Receipts written before
 * the tree existed (the tree holds `stored` leaves) are appended first, in order, so the tree
 * always covers the whole chain. The new leaf goes at index org_seq: a tree longer than the chain
 * already holds that leaf, and its primary key refuses the append.
 */
async function appendAuditLeaf(tx: WriteTransaction, record: AuditReceiptRecord, stored: number) {
  const orgId = record.org_id;
  for (let size = stored; size < record.org_seq;) {
    const rows = await tx.auditReceipts.chunk(orgId, size - 1, record.org_seq - 1, CATCH_UP_CHUNK);
    if (rows[0]?.org_seq !== size) {
      throw new Error(`the audit chain of ${orgId} has no receipt ${size} to put in its tree`);
    }
    await appendLeaves(
      tx,
      orgId,
      AUDIT_LOG,
      rows.map((r) => receiptLeaf(r.receipt_sha256)),
      size,
    );
    size += rows.length;
  }
  await appendLeaf(tx, orgId, AUDIT_LOG, receiptLeaf(record.receipt_sha256), record.org_seq);
}

/**
 * Writes the org's failure counters (`windows`, read under the audit chain lock) as
 * `sign_in.failed` receipts and clears them: every counter, or (closedOnly) those whose window has
 * ended.
 */
async function flushFailures(
  tx: WriteTransaction,
  orgId: string,
  windows: readonly SignInFailureWindow[],
  now: Date,
  closedOnly: boolean,
) {
  const nowMs = now.getTime();
  for (const w of windows) {
    const endMs = Date.parse(w.window_start) + SIGN_IN_FAILURE_WINDOW_MS;
    if (closedOnly && endMs > nowMs) continue;
    const event: AuditEvent = {
      type: 'sign_in.failed',
      count: w.count,
      credential: 'api_key',
      window_start: w.window_start,
      // A counter written early (before another audit event) covers the window up to now.
      window_end: new Date(Math.min(endMs, nowMs)).toISOString(),
      first_at: w.first_at,
      last_at: w.last_at,
    };
    await append(tx, orgId, ANONYMOUS, event, now);
    await tx.signInFailures.remove(orgId, w.window_start);
  }
}

/** Takes the audit chain lock and reads the org's failure counters under it, in one round trip. */
async function lockAndReadFailures(tx: WriteTransaction, orgId: string) {
  const [, windows] = await Promise.all([
    tx.lock(lockKeys.auditChain(orgId)),
    tx.signInFailures.pending(orgId),
  ]);
  return windows;
}

/**
 * Appends one audit receipt in the caller's write transaction, so it commits or rolls back with
 * the change it records. Takes the audit chain lock (the last lock of any transaction), writes the
 * org's pending failed sign-in counts first so the chain keeps them in order, then reads the head
 * and inserts under UNIQUE(org_id, org_seq). The lock and the reads go out together: statements
 * run in the order they are sent, so the reads run under the lock (one round trip on PostgreSQL).
 */
export async function recordAudit(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  const [, windows, head, stored] = await Promise.all([
    tx.lock(lockKeys.auditChain(orgId)),
    tx.signInFailures.pending(orgId),
    tx.auditReceipts.head(orgId),
    treeSize(tx, orgId, AUDIT_LOG),
  ]);
  if (windows.length > 0) {
    await flushFailures(tx, orgId, windows, now, false);
    return append(tx, orgId, actor, event, now);
  }
  return appendAfter(tx, orgId, actor, event, now, head, stored);
}

/**
 * Counts one failed sign-in against an org: one upsert into the current window's counter, after
 * writing any counter whose window has ended. A flood of failures is one row and at most one
 * receipt per window, however many attempts it holds.
 */
export async function recordSignInFailure(tx: WriteTransaction, orgId: string, now: Date) {
  await flushFailures(tx, orgId, await lockAndReadFailures(tx, orgId), now, true);
  await tx.signInFailures.add(orgId, failureWindowOf(now), now.toISOString());
}

/** Writes the org's counters whose window has ended (before an owner reads the chain). */
export async function flushClosedSignInFailures(tx: WriteTransaction, orgId: string, now: Date) {
  await flushFailures(tx, orgId, await lockAndReadFailures(tx, orgId), now, true);
}
