import { GENESIS_PARENT } from '@runledger/verify';
import { formatExportHeader, formatExportLine } from '@runledger/verify/export';
import { requireOwner } from '../actor.js';
import { checkpointAtSize, latestCheckpoint } from '../witnessing/served.js';
import { chainChunks } from '../ledger/chunks.js';
import { limitOf, seqOf } from '../ledger/use-cases.js';
import type { ChainHead } from '../ports/run-storage.js';
import type { Deps } from '../deps.js';
import type { AuditUseCases } from './api.js';
import { AUDIT_LOG, AUDIT_RECEIPT_PREFIX } from './build.js';
import { flushClosedSignInFailures, SIGN_IN_FAILURE_WINDOW_MS } from './record.js';
import { toAuditReceipt } from './views.js';

export function auditUseCases(deps: Deps): AuditUseCases {
  const { storage, clock, config, checkpointSigner } = deps;
  const signing = (now: Date) => ({
    signer: checkpointSigner,
    publicBaseUrl: config.publicBaseUrl,
    now,
  });

  /** Failed sign-in windows that ended are written before an owner reads, so the read shows them. */
  async function settle(orgId: string): Promise<void> {
    const now = clock.now();
    const pending = await storage.read((tx) => tx.signInFailures.pending(orgId));
    const ended = pending.some(
      (w) => Date.parse(w.window_start) + SIGN_IN_FAILURE_WINDOW_MS <= now.getTime(),
    );
    if (ended) await storage.write((tx) => flushClosedSignInFailures(tx, orgId, now));
  }

  const chunks = (orgId: string, head: ChainHead) =>
    chainChunks(storage, head, (tx, after, upto, limit) =>
      tx.auditReceipts.chunk(orgId, after, upto, limit),
    );

  return {
    async list(actor, query) {
      const owner = requireOwner(actor);
      const limit = limitOf(query.limit);
      const after = seqOf('after_seq', query.after_seq, -1);
      await settle(owner.orgId);
      const rows = await storage.read((tx) =>
        tx.auditReceipts.list(owner.orgId, after, limit + 1, query.type ?? null),
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        entries: page.map(toAuditReceipt),
        next: rows.length > limit && last !== undefined ? String(last.org_seq) : null,
      };
    },

    async *export(actor) {
      const owner = requireOwner(actor);
      await settle(owner.orgId);
      const now = clock.now();
      // Read in the head's snapshot, so the checkpoint signs exactly the exported receipts.
      const { head, count, checkpoint } = await storage.read(async (tx) => {
        const h = await tx.auditReceipts.head(owner.orgId);
        const n = h === null ? 0 : await tx.auditReceipts.count(owner.orgId, h.org_seq);
        const signed = await checkpointAtSize(tx, signing(now), owner.orgId, AUDIT_LOG, n);
        return { head: h, count: n, checkpoint: signed.checkpoint };
      });
      yield formatExportHeader({
        org_id: owner.orgId,
        exported_at: now.toISOString(),
        count,
        head_sha256: head?.receipt_sha256 ?? GENESIS_PARENT,
        receipt_prefix: AUDIT_RECEIPT_PREFIX,
        log: AUDIT_LOG,
        checkpoint,
      });
      if (head === null) return;
      for await (const rows of chunks(owner.orgId, head)) {
        for (const row of rows) yield formatExportLine(row);
      }
    },

    async checkpoint(actor) {
      const owner = requireOwner(actor);
      await settle(owner.orgId);
      return storage.read((tx) =>
        latestCheckpoint(tx, signing(clock.now()), owner.orgId, AUDIT_LOG),
      );
    },
  };
}
