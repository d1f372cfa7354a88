import { ChainVerifier } from '@runledger/verify/chain';
import { GENESIS_PARENT, type ChainError } from '@runledger/verify';
import { formatExportHeader, formatExportLine } from '@runledger/verify/export';
import { invalidInput } from '../errors.js';
import { pageQuery } from '../paging.js';
import type { ChainHead } from '../ports/run-storage.js';
import { toReceipt } from '../receipts/view.js';
import { LedgerErrorCode } from '../schemas/enums.js';
import type { LedgerVerifyError } from '../schemas/ledger.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { LedgerUseCases } from './api.js';
import { chainChunks } from './chunks.js';
import { ledgerProofUseCases } from './proofs.js';
import { checkpointAtSize } from '../witnessing/served.js';
import { LEDGER_LOG } from '../checkpoints/tree.js';

/** The page size rules of every list (default 50, at most 200), from the shared paging helper. */
export const limitOf = (limit: number | undefined) =>
  pageQuery(limit === undefined ? {} : { limit }).limit;

export function seqOf(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw invalidInput(`${name} must be an org_seq`);
  return value;
}

/** A finding of the verify package in the wire shape; every stored row has an id and an org_seq. */
function toLedgerError(e: ChainError): LedgerVerifyError {
  const code = LedgerErrorCode.safeParse(e.code);
  return {
    receipt_id: e.receipt_id ?? '',
    org_seq: e.org_seq ?? 0,
    code: code.success ? code.data : 'field_mismatch',
    message: e.message,
  };
}

export function ledgerUseCases(deps: Deps): LedgerUseCases {
  const { storage, clock, config, checkpointSigner } = deps;

  /** Reads the rows of the org up to `head` chunk by chunk, each chunk in its own short transaction. */
  const chunks = (orgId: string, head: ChainHead) =>
    chainChunks(storage, head, (tx, after, upto, limit) =>
      tx.receipts.chunk(orgId, after, upto, limit),
    );

  return {
    ...ledgerProofUseCases(deps),

    async list(actor, query) {
      const limit = limitOf(query.limit);
      const after = seqOf('after_seq', query.after_seq, -1);
      const rows = await storage.read((tx) => tx.receipts.entries(actor.orgId, after, limit + 1));
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        entries: page,
        next: rows.length > limit && last !== undefined ? String(last.org_seq) : null,
      };
    },

    async verify(actor: Actor) {
      const head = await storage.read((tx) => tx.receipts.head(actor.orgId));
      const verifier = new ChainVerifier({
        receiptPrefix: config.receiptPrefix,
        expectedOrgId: actor.orgId,
      });
      if (head !== null) {
        for await (const rows of chunks(actor.orgId, head)) {
          for (const row of rows) verifier.push(row);
        }
      }
      const result = verifier.result();
      return {
        ok: result.ok,
        receipts_checked: result.receipts_checked,
        errors: result.errors.map(toLedgerError),
      };
    },

    async *export(actor: Actor) {
      const now = clock.now();
      // The checkpoint is read in the snapshot of the head, so it signs exactly the exported receipts.
      const { head, count, checkpoint } = await storage.read(async (tx) => {
        const h = await tx.receipts.head(actor.orgId);
        const n = h === null ? 0 : await tx.receipts.count(actor.orgId, h.org_seq);
        const signed = await checkpointAtSize(
          tx,
          { signer: checkpointSigner, publicBaseUrl: config.publicBaseUrl, now },
          actor.orgId,
          LEDGER_LOG,
          n,
        );
        return { head: h, count: n, checkpoint: signed.checkpoint };
      });
      yield formatExportHeader({
        org_id: actor.orgId,
        exported_at: now.toISOString(),
        count,
        head_sha256: head?.receipt_sha256 ?? GENESIS_PARENT,
        receipt_prefix: config.receiptPrefix,
        checkpoint,
      });
      if (head === null) return;
      for await (const rows of chunks(actor.orgId, head)) {
        for (const row of rows) yield formatExportLine(row);
      }
    },

    async recent(actor, query) {
      const limit = limitOf(query.limit);
      const before =
        query.before_seq === undefined ? null : seqOf('before_seq', query.before_seq, 0);
      const rows = await storage.read((tx) => tx.receipts.recent(actor.orgId, before, limit + 1));
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        receipts: page.map((r) => toReceipt(r, config.publicBaseUrl)),
        next: rows.length > limit && last !== undefined ? String(last.org_seq) : null,
      };
    },
  };
}
