import { notFound } from '../errors.js';
import { receiptLeaf } from '@runledger/verify/ledger';
import { LEDGER_LOG, appendLeavesAfter, treeTail } from '../checkpoints/tree.js';
import { nowIso } from '../time.js';
import { buildReceipt } from '../receipts/build.js';
import { lockKeys } from '../ports/lock-keys.js';
import { shareToken } from '../receipts/share.js';
import type {
  ChainHead,
  ReceiptCheck,
  ReceiptEvidence,
  ReceiptRecord,
  MerkleTail,
  RunRecord,
  Settled,
  SubmissionHash,
  WriteTransaction,
} from '../ports/storage.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { assertCanMint } from './lifecycle.js';
import { updateRun } from './update-run.js';
import { emitReceiptsMinted, isListened } from '../webhooks/emit.js';
import { toReceipt } from '../receipts/view.js';
import {
  appendAudits,
  auditActor,
  openAuditChain,
  type AuditEntry,
  type OpenAuditChain,
} from '../audit-receipts/record.js';

interface MintAsk {
  actor: Actor;
  runId: string;
}

interface Minted {
  record: ReceiptRecord;
  created: boolean;
}

/** What a run's mint reads besides the chain: the run, its submission's hash, evidence, checks. */
interface RunReads {
  run: RunRecord | undefined;
  submission: SubmissionHash | undefined;
  evidence: ReceiptEvidence[];
  checks: ReceiptCheck[];
}

/** Groups rows by run id, keeping their order (each run's rows in the order they were read). */
function byRun<T extends { run_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.run_id);
    if (list === undefined) out.set(row.run_id, [row]);
    else list.push(row);
  }
  return out;
}

/**
 * Reads what the batch's runs mint from: four statements for the whole batch (the runs, their
 * submissions' hashes, and what receipts record of their evidence and checks), not four per run.
 */
async function readRuns(
  tx: WriteTransaction,
  orgId: string,
  runIds: readonly string[],
): Promise<Map<string, RunReads>> {
  const [runs, submissions, evidence, checks] = await Promise.all([
    tx.runs.getMany(orgId, runIds),
    tx.submissions.hashesOf(orgId, runIds),
    tx.evidence.listByRuns(orgId, runIds),
    tx.checks.listByRuns(orgId, runIds),
  ]);
  const runOf = new Map(runs.map((r) => [r.id, r]));
  const submissionOf = new Map(submissions.map((s) => [s.run_id, s]));
  const evidenceOf = byRun(evidence);
  const checksOf = byRun(checks);
  return new Map(
    runIds.map((id) => [
      id,
      {
        run: runOf.get(id),
        submission: submissionOf.get(id),
        evidence: evidenceOf.get(id) ?? [],
        checks: checksOf.get(id) ?? [],
      },
    ]),
  );
}

/** What a batch reads under its locks: the chain head, the ledger tree's tail, the audit chain and each run's inputs. */
interface BatchReads {
  head: ChainHead | null;
  ledger: MerkleTail;
  audit: OpenAuditChain;
  readsOf: Map<string, RunReads>;
}

/**
 * Takes the runs' mint locks (in run id order, so two batches never wait on each other in a cycle)
 * and the chain's, and reads together every run with its submission, evidence and checks, the org
 * head (one indexed row), the ledger tree's tail and the audit chain. Statements run in the order
 * they are sent, so the reads run under the locks though sent with them; the audit chain's lock
 * (openAuditChain) is the last one taken.
 */
async function readUnderLocks(
  tx: WriteTransaction,
  orgId: string,
  runIds: readonly string[],
): Promise<BatchReads> {
  const [, head, ledger, audit, readsOf] = await Promise.all([
    Promise.all([
      ...runIds.map((id) => tx.lock(lockKeys.runMint(id))),
      tx.lock(lockKeys.chain(orgId)),
    ]),
    tx.receipts.head(orgId),
    treeTail(tx, orgId, LEDGER_LOG),
    openAuditChain(tx, orgId),
    readRuns(tx, orgId, runIds),
  ]);
  // Leaf i of the ledger tree is org_seq i (start-up runs backfillLedgerTrees).
  const nextSeq = head === null ? 0 : head.org_seq + 1;
  if (ledger.size !== nextSeq) {
    throw new Error(
      `the ledger tree of ${orgId} has ${ledger.size} leaves before org_seq ${nextSeq}: backfillLedgerTrees has not run`,
    );
  }
  return { head, ledger, audit, readsOf };
}

/** One ask's place in the batch: a receipt minted now, one to answer with, or a failure of its own. */
type Planned =
  | { kind: 'minted'; record: ReceiptRecord; created: boolean }
  | { kind: 'receipted'; runId: string }
  | { kind: 'failed'; error: unknown };

/** The next receipt of the chain for an approved run, after `last`; a run already receipted says so. */
function nextReceipt(
  deps: Deps,
  orgId: string,
  reads: RunReads,
  last: ChainHead | null,
  now: Date,
): ReceiptRecord | 'receipted' {
  const { run, submission, evidence, checks } = reads;
  if (!run) throw notFound('run');
  if (assertCanMint(run.state) === 'already_minted') return 'receipted';
  if (!submission || !run.verdict || !run.approval) {
    throw new Error('an approved run lacks its submission, verdict or approval');
  }
  const built = buildReceipt({
    head: last,
    orgId,
    prefix: deps.config.receiptPrefix,
    run,
    flightSheet: {
      id: run.flight_sheet_id,
      slug: run.flight_sheet_slug,
      version: run.flight_sheet_version,
      sha256: run.flight_sheet_sha256,
    },
    submissionSha256: submission.sha256,
    evidence,
    checks,
    verdict: run.verdict,
    approval: run.approval,
    now,
  });
  return {
    receipt_id: built.receipt_id,
    org_id: orgId,
    org_seq: built.org_seq,
    run_id: run.id,
    parent_hash: built.parent_hash,
    receipt_sha256: built.receipt_sha256,
    payload_text: built.payload_text,
    share_token: shareToken(deps.random),
    created_at: built.payload.minted_at,
  };
}

/**
 * Builds and hashes each payload after the one before it, in arrival order. An ask that cannot
 * mint (unknown run, not approved, invalid payload) fails alone and takes no place in the chain; a
 * receipted run, or one asked twice, answers with its existing receipt.
 */
function planMints(
  deps: Deps,
  orgId: string,
  asks: readonly MintAsk[],
  reads: BatchReads,
  now: Date,
): Planned[] {
  const mintedNow = new Map<string, ReceiptRecord>();
  let last = reads.head;
  return asks.map((ask): Planned => {
    const earlier = mintedNow.get(ask.runId);
    if (earlier !== undefined) return { kind: 'minted', record: earlier, created: false };
    try {
      const next = nextReceipt(deps, orgId, reads.readsOf.get(ask.runId)!, last, now);
      if (next === 'receipted') return { kind: 'receipted', runId: ask.runId };
      last = { org_seq: next.org_seq, receipt_sha256: next.receipt_sha256 };
      mintedNow.set(ask.runId, next);
      return { kind: 'minted', record: next, created: true };
    } catch (error) {
      return { kind: 'failed', error };
    }
  });
}

/**
 * Writes the batch's new receipts and reads the existing ones it answers with, all sent together:
 * the receipts under UNIQUE(org_id, org_seq) and UNIQUE(run_id), the runs marked receipted, their
 * leaves appended to the org's ledger tree, each share link audited (by receipt, never by its
 * token) and `receipt.minted` emitted when some endpoint listens. Returns the existing receipts by
 * run id.
 */
async function writeMints(
  deps: Deps,
  tx: WriteTransaction,
  orgId: string,
  asks: readonly MintAsk[],
  plan: readonly Planned[],
  reads: BatchReads,
  now: Date,
): Promise<Map<string, ReceiptRecord | null>> {
  const updatedAt = nowIso(deps.clock);
  const minted = plan.flatMap((p, i) =>
    p.kind === 'minted' && p.created
      ? [{ record: p.record, run: reads.readsOf.get(p.record.run_id)!.run!, actor: asks[i]!.actor }]
      : [],
  );
  const receipted = [...new Set(plan.flatMap((p) => (p.kind === 'receipted' ? [p.runId] : [])))];
  const entries: AuditEntry[] = minted.map(({ record, run, actor }) => ({
    actor: auditActor(actor),
    event: { type: 'share_link.created', receipt_id: record.receipt_id, run_id: run.id },
  }));
  const [existing] = await Promise.all([
    Promise.all(receipted.map((runId) => tx.receipts.byRun(orgId, runId))),
    ...minted.map(({ record }) => tx.receipts.insert(record)),
    ...minted.map(({ run }) => updateRun(tx, run, { state: 'receipted', updated_at: updatedAt })),
    minted.length > 0
      ? appendLeavesAfter(
          tx,
          orgId,
          LEDGER_LOG,
          reads.ledger,
          minted.map(({ record }) => receiptLeaf(record.receipt_sha256)),
        )
      : undefined,
    minted.length > 0 ? appendAudits(tx, reads.audit, entries, now) : undefined,
    isListened(reads.audit.listened, 'receipt.minted')
      ? emitReceiptsMinted(
          tx,
          orgId,
          minted.map(({ record }) => record),
          deps.config.publicBaseUrl,
        )
      : undefined,
  ]);
  return new Map(receipted.map((runId, i) => [runId, existing[i] ?? null]));
}

/** Each ask's outcome from its plan and the existing receipts read for it. */
function settle(
  plan: readonly Planned[],
  existing: Map<string, ReceiptRecord | null>,
): Settled<Minted>[] {
  return plan.map((p): Settled<Minted> => {
    if (p.kind === 'failed') return { ok: false, error: p.error };
    if (p.kind === 'minted') return { ok: true, value: { record: p.record, created: p.created } };
    const record = existing.get(p.runId);
    return record
      ? { ok: true, value: { record, created: false } }
      : { ok: false, error: new Error('the run is receipted but its receipt is missing') };
  });
}

/**
 * Mints the receipts of a batch of one organization's runs in one transaction: reads under the
 * locks (readUnderLocks), plans the chain in arrival order (planMints), then writes it
 * (writeMints), whatever the chain's length.
 */
async function mintBatch(
  deps: Deps,
  tx: WriteTransaction,
  orgId: string,
  asks: readonly MintAsk[],
): Promise<Settled<Minted>[]> {
  const runIds = [...new Set(asks.map((a) => a.runId))].sort();
  const reads = await readUnderLocks(tx, orgId, runIds);
  const now = deps.clock.now();
  const plan = planMints(deps, orgId, asks, reads, now);
  return settle(plan, await writeMints(deps, tx, orgId, asks, plan, reads, now));
}

/**
 * Mints the receipt of an approved run: the next link of its organization's chain, in a batch with
 * the org's other mints waiting at that moment (mintBatch, through `Storage.writeBatches`: the chain
 * is one sequence, so they would take turns on its lock anyway), durable before the answer. A
 * receipted run answers with its existing receipt.
 */
export function runMintUseCase(deps: Deps): Pick<RunUseCases, 'mintReceipt'> {
  const { storage, config } = deps;
  const mint = storage.writeBatches<MintAsk, Minted>((tx, orgId, asks) =>
    mintBatch(deps, tx, orgId, asks),
  );
  return {
    async mintReceipt(actor, runId) {
      const { record, created } = await mint(actor.orgId, { actor, runId });
      return { receipt: toReceipt(record, config.publicBaseUrl), created };
    },
  };
}
