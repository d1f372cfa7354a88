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
import { loadRun, toReceipt } from './views.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';

/**
 * Mints the receipt of an approved run in one transaction: read the org head (one indexed row),
 * build and hash the payload, insert under UNIQUE(org_id, org_seq) and UNIQUE(run_id), append its
 * leaf to the org's Merkle tree (O(log n) nodes), mark the run receipted. A receipted run answers with its existing receipt.
 */
export function runMintUseCase(deps: Deps): Pick<RunUseCases, 'mintReceipt'> {
  const { storage, clock, random, config } = deps;
  return {
    async mintReceipt(actor, runId) {
      const { record, created } = await storage.write(async (tx) => {
        // A second minter of this run waits here, then finds it receipted and answers its receipt.
        await tx.lock(lockKeys.runMint(runId));
        const run = await loadRun(tx, actor.orgId, runId);
        if (assertCanMint(run.state) === 'already_minted') {
          const existing = await tx.receipts.byRun(actor.orgId, run.id);
          if (!existing) throw new Error('the run is receipted but its receipt is missing');
          return { record: existing, created: false };
        }
        const submission = await tx.submissions.get(actor.orgId, run.id);
        if (!submission || !run.verdict || !run.approval) {
          throw new Error('an approved run lacks its submission, verdict or approval');
        }
        // One minter per org appends after the head at a time, so the chain never forks.
        await tx.lock(lockKeys.chain(actor.orgId));
        const now = clock.now();
        const minted = buildReceipt({
          head: await tx.receipts.head(actor.orgId),
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
          evidence: await tx.evidence.listByRun(actor.orgId, run.id),
          checks: await tx.checks.listByRun(actor.orgId, run.id),
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
        await tx.receipts.insert(record);
        // The tree grows in the same transaction and under the same chain lock: leaf i is org_seq i.
        const tree = await appendLeaf(
          tx,
          actor.orgId,
          LEDGER_LOG,
          receiptLeaf(record.receipt_sha256),
        );
        if (tree.size !== record.org_seq + 1) {
          throw new Error(
            `the ledger tree of ${actor.orgId} has ${tree.size - 1} leaves before org_seq ${record.org_seq}: backfillLedgerTrees has not run`,
          );
        }
        await updateRun(tx, run, { state: 'receipted', updated_at: nowIso(clock) });
        // The receipt's share link is created with it: audited by receipt, never by its token.
        await recordAudit(
          tx,
          actor.orgId,
          auditActor(actor),
          { type: 'share_link.created', receipt_id: record.receipt_id, run_id: run.id },
          now,
        );
        return { record, created: true };
      });
      return { receipt: toReceipt(record, config.publicBaseUrl), created };
    },
  };
}
