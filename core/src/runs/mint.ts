import { notFound } from '../errors.js';
import { receiptLeaf } from '@runledger/verify';
import { LEDGER_LOG, appendLeaf } from '../checkpoints/tree.js';
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
import { auditActor, recordAudit } from '../audit-receipts/record.js';

/**
 * Mints the receipt of an approved run in one transaction: under the run's and the chain's locks,
 * read together the run, its submission, evidence and checks and the org head (one indexed row);
 * build and hash the payload; then together insert under UNIQUE(org_id, org_seq) and
 * UNIQUE(run_id) and mark the run receipted, whatever the chain's length; the receipt's leaf joins
 * the org's Merkle tree in the same transaction (O(log n) nodes) and its share link is audited.
 * On PostgreSQL the statements sent together are one round trip (docs/storage.md). A receipted
 * run answers with its existing receipt.
 */
export function runMintUseCase(deps: Deps): Pick<RunUseCases, 'mintReceipt'> {
  const { storage, clock, random, config } = deps;
  return {
    async mintReceipt(actor, runId) {
      const { record, created } = await storage.write(async (tx) => {
        // A transaction's statements run in the order they are sent, so the reads below run under
        // both locks though sent with them: the run's lock (a second minter of this run waits, then
        // finds it receipted) and the chain's (one minter per org appends after the head at a
        // time, so the chain never forks). The chain lock is taken before knowing the run is
        // mintable so that the locks and the five reads are one round trip to the engine.
        const [, , run, submission, head, evidence, checks] = await Promise.all([
          tx.lock(lockKeys.runMint(runId)),
          tx.lock(lockKeys.chain(actor.orgId)),
          tx.runs.get(actor.orgId, runId),
          tx.submissions.get(actor.orgId, runId),
          tx.receipts.head(actor.orgId),
          tx.evidence.listByRun(actor.orgId, runId),
          tx.checks.listByRun(actor.orgId, runId),
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
        // The writes go out together; the transaction waits for all of them before it ends. The tree
        // grows in the same transaction and under the same chain lock: leaf i is org_seq i, so the
        // new leaf's index is the receipt's org_seq (a tree of another length is refused; start-up
        // runs backfillLedgerTrees). The receipt's share link is created with it: audited by
        // receipt, never by its token; the audit append reads its own chain meanwhile.
        await Promise.all([
          tx.receipts.insert(record),
          appendLeaf(
            tx,
            actor.orgId,
            LEDGER_LOG,
            receiptLeaf(record.receipt_sha256),
            record.org_seq,
          ),
          updateRun(tx, run, { state: 'receipted', updated_at: nowIso(clock) }),
          recordAudit(
            tx,
            actor.orgId,
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
