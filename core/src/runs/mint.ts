import { notFound } from '../errors.js';
import { receiptLeaf } from '@runledger/verify';
import { LEDGER_LOG, appendLeavesAfter, treeTail } from '../checkpoints/tree.js';
import { nowIso } from '../time.js';
import { buildReceipt } from '../receipts/build.js';
import { lockKeys } from '../ports/lock-keys.js';
import { shareToken } from '../receipts/share.js';
import type { ReceiptRecord } from '../ports/storage.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { assertCanMint } from './lifecycle.js';
import { updateRun } from './update-run.js';
import { toReceipt } from './views.js';
import { appendAudit, auditActor, openAuditChain } from '../audit-receipts/record.js';

/**
 * Mints the receipt of an approved run in one transaction: under the run's and the chain's locks,
 * read together the run, its submission, evidence and checks and the org head (one indexed row);
 * build and hash the payload; then together insert under UNIQUE(org_id, org_seq) and
 * UNIQUE(run_id) and mark the run receipted, whatever the chain's length; the receipt's leaf joins
 * the org's Merkle tree in the same transaction (O(log n) nodes) and its share link is audited.
 * Statements sent together are one round trip on PostgreSQL (docs/storage.md): the locks with
 * every read, then every write, then COMMIT. A receipted run answers with its existing receipt.
 */
export function runMintUseCase(deps: Deps): Pick<RunUseCases, 'mintReceipt'> {
  const { storage, clock, random, config } = deps;
  return {
    async mintReceipt(actor, runId) {
      const { record, created } = await storage.write(async (tx) => {
        // A transaction's statements run in the order they are sent, so the reads below run under
        // the locks though sent with them: the run's lock (a second minter of this run waits, then
        // finds it receipted), the chain's (one minter per org appends after the head at a time, so
        // the chain and its tree never fork) and, last, the audit chain's. They are taken before
        // knowing the run is mintable so that the locks and every read the mint needs (the run, its
        // submission, evidence and checks, the org head, the ledger tree's tail, the audit chain's
        // head and tail) are one round trip to the engine.
        const [, , run, submission, head, evidence, checks, ledger, audit] = await Promise.all([
          tx.lock(lockKeys.runMint(runId)),
          tx.lock(lockKeys.chain(actor.orgId)),
          tx.runs.get(actor.orgId, runId),
          tx.submissions.get(actor.orgId, runId),
          tx.receipts.head(actor.orgId),
          tx.evidence.listByRun(actor.orgId, runId),
          tx.checks.listByRun(actor.orgId, runId),
          treeTail(tx, actor.orgId, LEDGER_LOG),
          openAuditChain(tx, actor.orgId),
        ]);
        if (!run) throw notFound('run');
        if (assertCanMint(run.state) === 'already_minted') {
          const existing = await tx.receipts.byRun(actor.orgId, run.id);
          if (!existing) throw new Error('the run is receipted but its receipt is missing');
          return { record: existing, created: false };
        }
        if (!submission || !run.verdict || !run.approval) {
          throw new Error('an approved run lacks its submission, verdict or approval');
        }
        const now = clock.now();
        const minted = buildReceipt({
          head,
          orgId: actor.orgId,
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
          receipt_id: minted.receipt_id,
          org_id: actor.orgId,
          org_seq: minted.org_seq,
          run_id: run.id,
          parent_hash: minted.parent_hash,
          receipt_sha256: minted.receipt_sha256,
          payload_text: minted.payload_text,
          share_token: shareToken(random),
          created_at: minted.payload.minted_at,
        };
        // Leaf i of the ledger tree is org_seq i (start-up runs backfillLedgerTrees).
        if (ledger.size !== record.org_seq) {
          throw new Error(
            `the ledger tree of ${actor.orgId} has ${ledger.size} leaves before org_seq ${record.org_seq}: backfillLedgerTrees has not run`,
          );
        }
        // The writes go out together, and read nothing; the transaction waits for all of them
        // before it ends. The receipt's share link is created with it: audited by receipt, never
        // by its token.
        await Promise.all([
          tx.receipts.insert(record),
          appendLeavesAfter(tx, actor.orgId, LEDGER_LOG, ledger, [
            receiptLeaf(record.receipt_sha256),
          ]),
          updateRun(tx, run, { state: 'receipted', updated_at: nowIso(clock) }),
          appendAudit(
            tx,
            audit,
            auditActor(actor),
            { type: 'share_link.created', receipt_id: record.receipt_id, run_id: run.id },
            now,
          ),
        ]);
        return { record, created: true };
      });
      return { receipt: toReceipt(record, config.publicBaseUrl), created };
    },
  };
}
