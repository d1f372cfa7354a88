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
import { receiptLeaf } from '@runledger/verify/ledger';
import { appendLeaves, appendLeavesAfter, treeTail } from '../checkpoints/tree.js';
import { AUDIT_LOG, buildAuditReceipt } from './build.js';
import { emitAuditRecorded, isListened } from '../webhooks/emit.js';

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

/** One audit receipt to append: who did what. */
export interface AuditEntry {
  actor: AuditActor;
  event: AuditEvent;
}

/**
 * Appends audit receipts, in order, after `head`, their leaves joining the `audit` tree whose tail
 * is `tree`, the two reads the caller made together under the audit chain lock. Each receipt links
 * to the one before it; the inserts and the leaves go out together and read nothing. Their
 * `audit.recorded` events are built only when `recordedListened` (some endpoint may listen).
 */
async function appendAfter(
  tx: WriteTransaction,
  orgId: string,
  entries: readonly AuditEntry[],
  now: Date,
  head: ChainHead | null,
  tree: MerkleTail,
  recordedListened = true,
): Promise<AuditReceiptRecord[]> {
  const records: AuditReceiptRecord[] = [];
  let last = head;
  for (const { actor, event } of entries) {
    const built = buildAuditReceipt({ head: last, orgId, actor, event, now });
    records.push({
      receipt_id: built.receipt_id,
      org_id: orgId,
      org_seq: built.org_seq,
      event_type: event.type,
      parent_hash: built.parent_hash,
      receipt_sha256: built.receipt_sha256,
      payload_text: built.payload_text,
      created_at: built.payload.minted_at,
    });
    last = { org_seq: built.org_seq, receipt_sha256: built.receipt_sha256 };
  }
  if (records.length === 0) return records;
  await Promise.all([
    ...records.map((record) => tx.auditReceipts.insert(record)),
    appendAuditLeaves(tx, orgId, records, tree),
    recordedListened ? emitAuditRecorded(tx, orgId, records) : undefined,
  ]);
  return records;
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
  const [record] = await appendAfter(tx, orgId, [{ actor, event }], now, head, tree);
  return record!;
}

/** Rows per catch-up append (see appendAuditLeaves). */
const CATCH_UP_CHUNK = 500;

/**
 * Leaf i of the org's `audit` tree is its audit receipt org_seq i, appended in the receipt's
 * transaction under the audit chain lock (the lock that orders this log). `records` are consecutive,
 * in org_seq order. Receipts written before the tree existed (the tree is shorter than the chain)
 * are appended first, in order, so the tree always covers the whole chain. A tree longer than the
 * chain is refused.
 */
async function appendAuditLeaves(
  tx: WriteTransaction,
  orgId: string,
  records: readonly AuditReceiptRecord[],
  tree: MerkleTail,
) {
  const first = records[0]!.org_seq;
  const leaves = records.map((r) => receiptLeaf(r.receipt_sha256));
  if (tree.size === first) {
    await appendLeavesAfter(tx, orgId, AUDIT_LOG, tree, leaves);
    return;
  }
  if (tree.size > first) {
    throw new Error(`the audit tree of ${orgId} has ${tree.size} leaves before org_seq ${first}`);
  }
  for (let size = tree.size; size < first;) {
    const rows = await tx.auditReceipts.chunk(orgId, size - 1, first - 1, CATCH_UP_CHUNK);
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
  await appendLeaves(tx, orgId, AUDIT_LOG, leaves, first);
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

/** Takes the audit chain lock and reads the org's failure counters under it, sent together. */
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
  /** The webhook event types some enabled endpoint of the org listens to, read with the chain. */
  listened: ReadonlySet<string>;
}

/**
 * Takes the org's audit chain lock (the last lock of any transaction) and reads under it what an
 * append needs: the pending failed sign-in counts, the chain head, the `audit` tree's tail and the
 * event types the org's webhooks listen to. The lock and the reads go out together: statements run
 * in the order they are sent, so the reads run under the lock. A caller may send this with its own
 * reads.
 */
export async function openAuditChain(tx: WriteTransaction, orgId: string): Promise<OpenAuditChain> {
  const [, windows, head, tree, listened] = await Promise.all([
    tx.lock(lockKeys.auditChain(orgId)),
    tx.signInFailures.pending(orgId),
    tx.auditReceipts.head(orgId),
    treeTail(tx, orgId, AUDIT_LOG),
    tx.webhookOutbox.listenedTypes(orgId),
  ]);
  return { orgId, windows, head, tree, listened };
}

/**
 * Appends audit receipts, in order, to a chain this transaction opened (openAuditChain) and has not
 * appended to since: the org's pending failed sign-in counts first, so the chain keeps them in
 * order, then these receipts, inserted under UNIQUE(org_id, org_seq). With nothing pending, their
 * writes go out together and read nothing.
 */
export async function appendAudits(
  tx: WriteTransaction,
  chain: OpenAuditChain,
  entries: readonly AuditEntry[],
  now: Date,
): Promise<AuditReceiptRecord[]> {
  const { orgId, windows, head, tree, listened } = chain;
  const recordedListened = isListened(listened, 'audit.recorded');
  if (windows.length > 0) {
    await flushFailures(tx, orgId, windows, now, false);
    const [after, grown] = await Promise.all([
      tx.auditReceipts.head(orgId),
      treeTail(tx, orgId, AUDIT_LOG),
    ]);
    return appendAfter(tx, orgId, entries, now, after, grown, recordedListened);
  }
  return appendAfter(tx, orgId, entries, now, head, tree, recordedListened);
}

/**
 * Appends one audit receipt in the caller's write transaction, so it is kept or undone with
 * the change it records: openAuditChain, then appendAudits.
 */
export async function recordAudit(
  tx: WriteTransaction,
  orgId: string,
  actor: AuditActor,
  event: AuditEvent,
  now: Date,
): Promise<AuditReceiptRecord> {
  const [record] = await appendAudits(tx, await openAuditChain(tx, orgId), [{ actor, event }], now);
  return record!;
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
