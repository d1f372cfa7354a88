import { lockKeys } from '../ports/lock-keys.js';
import type {
  AuditReceiptRecord,
  ChainHead,
  MerkleTail,
  SignInFailureWindow,
  WriteTransaction,
} from '../ports/storage.js';
import type { AuditActor, AuditEvent } from '../schemas/audit-receipt.js';
import type { Actor } from '../actor.js';
import { receiptLeaf } from '@runledger/verify';
import { appendLeaf, appendLeaves, appendLeavesAfter, treeTail } from '../checkpoints/tree.js';
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
 * Appends one audit receipt after `head`, its leaf joining the `audit` tree whose tail is `tree`,
 * the two reads the caller made together under the audit chain lock.
 */
async function appendAfter(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
  head: ChainHead | null,
  tree: MerkleTail,
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
  await Promise.all([tx.auditReceipts.insert(record), appendAuditLeaf(tx, record, tree)]);
  return record;
}

/** Reads the audit chain's head and its tree's tail together, then appends after them. */
async function append(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  const [head, tree] = await Promise.all([
    tx.auditReceipts.head(orgId),
    treeTail(tx, orgId, AUDIT_LOG),
  ]);
  return appendAfter(tx, orgId, actor, event, now, head, tree);
}

/** Rows per catch-up append (see appendAuditLeaf). */
const CATCH_UP_CHUNK = 500;

/**
 * Leaf i of the org's `audit` tree is its audit receipt org_seq i, appended in the receipt's
 * transaction under the audit chain lock (the lock that orders this log). Receipts written before
 * the tree existed (the tree is shorter than the chain) are appended first, in order, so the tree
 * always covers the whole chain. A tree longer than the chain is refused.
 */
async function appendAuditLeaf(tx: WriteTransaction, record: AuditReceiptRecord, tree: MerkleTail) {
  const orgId = record.org_id;
  const leaf = receiptLeaf(record.receipt_sha256);
  if (tree.size === record.org_seq) {
    await appendLeavesAfter(tx, orgId, AUDIT_LOG, tree, [leaf]);
    return;
  }
  if (tree.size > record.org_seq) {
    throw new Error(
      `the audit tree of ${orgId} has ${tree.size} leaves before org_seq ${record.org_seq}`,
    );
  }
  for (let size = tree.size; size < record.org_seq;) {
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
  await appendLeaf(tx, orgId, AUDIT_LOG, leaf, record.org_seq);
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

/** The audit chain of one organization as read under its lock: see openAuditChain. */
export interface OpenAuditChain {
  orgId: string;
  windows: SignInFailureWindow[];
  head: ChainHead | null;
  tree: MerkleTail;
}

/**
 * Takes the org's audit chain lock (the last lock of any transaction) and reads under it what an
 * append needs: the pending failed sign-in counts, the chain head and the `audit` tree's tail. The
 * lock and the reads go out together: statements run in the order they are sent, so the reads run
 * under the lock (one round trip on PostgreSQL). A caller may send this with its own reads.
 */
export async function openAuditChain(tx: WriteTransaction, orgId: string): Promise<OpenAuditChain> {
  const [, windows, head, tree] = await Promise.all([
    tx.lock(lockKeys.auditChain(orgId)),
    tx.signInFailures.pending(orgId),
    tx.auditReceipts.head(orgId),
    treeTail(tx, orgId, AUDIT_LOG),
  ]);
  return { orgId, windows, head, tree };
}

/**
 * Appends one audit receipt to a chain this transaction opened (openAuditChain) and has not
 * appended to since: the org's pending failed sign-in counts first, so the chain keeps them in
 * order, then this receipt, inserted under UNIQUE(org_id, org_seq). With nothing pending, its
 * writes go out together and read nothing.
 */
export async function appendAudit(
  tx: WriteTransaction,
  chain: OpenAuditChain,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  const { orgId, windows, head, tree } = chain;
  if (windows.length > 0) {
    await flushFailures(tx, orgId, windows, now, false);
    return append(tx, orgId, actor, event, now);
  }
  return appendAfter(tx, orgId, actor, event, now, head, tree);
}

/**
 * Appends one audit receipt in the caller's write transaction, so it commits or rolls back with
 * the change it records: openAuditChain, then appendAudit.
 */
export async function recordAudit(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  return appendAudit(tx, await openAuditChain(tx, orgId), actor, event, now);
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
