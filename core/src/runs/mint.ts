import { notFound } from '../errors.js';
import { receiptLeaf } from '@runledger/verify';
import { LEDGER_LOG, appendLeavesAfter, treeTail } from '../checkpoints/tree.js';
import { nowIso } from '../time.js';
import { buildReceipt } from '../receipts/build.js';
import { lockKeys } from '../ports/lock-keys.js';
import { shareToken } from '../receipts/share.js';
import type {
  ChainHead,
  CheckRecord,
  EvidenceRecord,
  ReceiptRecord,
  RunRecord,
  SubmissionRecord,
  WriteTransaction,
} from '../ports/storage.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { keyedBatches, type Settled } from '../keyed-batches.js';
import type { RunUseCases } from './api.js';
import { assertCanMint } from './lifecycle.js';
import { updateRun } from './update-run.js';
import { emitReceiptsMinted } from '../webhooks/emit.js';
import { toReceipt } from '../receipts/view.js';
import {
  appendAudits,
  auditActor,
  openAuditChain,
  type AuditEntry,
} from '../audit-receipts/record.js';

interface MintAsk {
  actor: Actor;
  runId: string;
}

interface Minted {
  record: ReceiptRecord;
  created: boolean;
}

/**
 * Mints of one organization that arrive while its previous batch is in its transaction wait and
 * go together in the next (keyed-batches.ts): the chain is one sequence, so they would take turns
 * on its lock anyway. A batch this large holds the chain's lock for a few milliseconds.
 */
const MAX_MINTS_PER_BATCH = 128;

/** What a run's mint reads besides the chain: the run, its submission, evidence and checks. */
interface RunReads {
  run: RunRecord | undefined;
  submission: SubmissionRecord | undefined;
  evidence: EvidenceRecord[];
  checks: CheckRecord[];
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
 * submissions, evidence and checks), not four per run.
 */
async function readRuns(
  tx: WriteTransaction,
  orgId: string,
  runIds: readonly string[],
): Promise<Map<string, RunReads>> {
  const [runs, submissions, evidence, checks] = await Promise.all([
    tx.runs.getMany(orgId, runIds),
    tx.submissions.getMany(orgId, runIds),
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

/**
 * Mints the receipts of a batch of one organization's runs in one transaction. Under the runs' mint
 * locks (in run id order, so two batches never wait on each other in a cycle) and the chain's, it
 * reads together every run with its submission, evidence and checks, the org head (one indexed
 * row), the ledger tree's tail and the audit chain; builds and hashes each payload after the one
 * before it, in arrival order; then inserts them all under UNIQUE(org_id, org_seq) and
 * UNIQUE(run_id), marks the runs receipted, appends their leaves to the org's Merkle tree and
 * audits each share link, whatever the chain's length. Statements sent together are one round trip
 * on PostgreSQL (docs/storage.md): the locks with every read, then every write, then COMMIT.
 * An ask that cannot mint (unknown run, not approved, invalid payload) fails alone and takes no
 * place in the chain; a receipted run, or one asked twice, answers with its existing receipt.
 */
async function mintBatch(
  deps: Deps,
  tx: WriteTransaction,
  orgId: string,
  asks: readonly MintAsk[],
): Promise<Settled<Minted>[]> {
  const { clock, random, config } = deps;
  const runIds = [...new Set(asks.map((a) => a.runId))].sort();
  // A transaction's statements run in the order they are sent, so the reads run under the locks
  // though sent with them; the audit chain's lock (openAuditChain) is the last one taken.
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

  const now = clock.now();
  const outcomes: Settled<Minted>[] = [];
  const mintedNow = new Map<string, ReceiptRecord>();
  const receipted: { at: number; run: RunRecord }[] = [];
  const minted: { record: ReceiptRecord; run: RunRecord; actor: Actor }[] = [];
  let last: ChainHead | null = head;
  for (const ask of asks) {
    const earlier = mintedNow.get(ask.runId);
    if (earlier !== undefined) {
      outcomes.push({ ok: true, value: { record: earlier, created: false } });
      continue;
    }
    try {
      const { run, submission, evidence, checks } = readsOf.get(ask.runId)!;
      if (!run) throw notFound('run');
      if (assertCanMint(run.state) === 'already_minted') {
        receipted.push({ at: outcomes.length, run });
        outcomes.push({ ok: false, error: new Error('unread') });
        continue;
      }
      if (!submission || !run.verdict || !run.approval) {
        throw new Error('an approved run lacks its submission, verdict or approval');
      }
      const built = buildReceipt({
        head: last,
        orgId,
        prefix: config.receiptPrefix,
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
      const record: ReceiptRecord = {
        receipt_id: built.receipt_id,
        org_id: orgId,
        org_seq: built.org_seq,
        run_id: run.id,
        parent_hash: built.parent_hash,
        receipt_sha256: built.receipt_sha256,
        payload_text: built.payload_text,
        share_token: shareToken(random),
        created_at: built.payload.minted_at,
      };
      last = { org_seq: record.org_seq, receipt_sha256: record.receipt_sha256 };
      mintedNow.set(run.id, record);
      minted.push({ record, run, actor: ask.actor });
      outcomes.push({ ok: true, value: { record, created: true } });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }

  // The writes go out together, and read nothing but the receipts of runs receipted before; the
  // transaction waits for all of them before it ends. Each receipt's share link is created with
  // it: audited by receipt, never by its token.
  const updatedAt = nowIso(clock);
  const entries: AuditEntry[] = minted.map(({ record, run, actor }) => ({
    actor: auditActor(actor),
    event: { type: 'share_link.created', receipt_id: record.receipt_id, run_id: run.id },
  }));
  const [existing] = await Promise.all([
    Promise.all(receipted.map(({ run }) => tx.receipts.byRun(orgId, run.id))),
    ...minted.map(({ record }) => tx.receipts.insert(record)),
    ...minted.map(({ run }) => updateRun(tx, run, { state: 'receipted', updated_at: updatedAt })),
    minted.length > 0
      ? appendLeavesAfter(
          tx,
          orgId,
          LEDGER_LOG,
          ledger,
          minted.map(({ record }) => receiptLeaf(record.receipt_sha256)),
        )
      : undefined,
    minted.length > 0 ? appendAudits(tx, audit, entries, now) : undefined,
    emitReceiptsMinted(
      tx,
      orgId,
      minted.map(({ record }) => record),
      config.publicBaseUrl,
    ),
  ]);
  receipted.forEach(({ at }, i) => {
    const record = existing[i];
    outcomes[at] = record
      ? { ok: true, value: { record, created: false } }
      : { ok: false, error: new Error('the run is receipted but its receipt is missing') };
  });
  return outcomes;
}

/**
 * Mints the receipt of an approved run: the next link of its organization's chain, in a batch with
 * the org's other mints waiting at that moment (mintBatch), durable before the answer. A receipted
 * run answers with its existing receipt.
 */
export function runMintUseCase(deps: Deps): Pick<RunUseCases, 'mintReceipt'> {
  const { storage, config } = deps;
  const mint = keyedBatches<MintAsk, Minted>(MAX_MINTS_PER_BATCH, (orgId, asks) =>
    storage.write((tx) => mintBatch(deps, tx, orgId, asks)),
  );
  return {
    async mintReceipt(actor, runId) {
      const { record, created } = await mint(actor.orgId, { actor, runId });
      return { receipt: toReceipt(record, config.publicBaseUrl), created };
    },
  };
}
