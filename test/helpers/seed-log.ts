import { join } from 'node:path';
import { openPostgresStorage, openSqliteStorage } from '@runledger/adapters';
import {
  AUDIT_LOG,
  appendLeaves,
  buildAuditReceipt,
  consistencyProofAt,
  inclusionProofAt,
  treeRootAt,
} from '@runledger/core/adapter';
import type { Storage } from '@runledger/core/ports';
import { receiptLeaf } from '@runledger/verify/ledger';
import { toHex } from '@runledger/verify/hash';
import type { TestServer } from './server.js';

/** A second storage handle on a test server's database (its SQLite file or PostgreSQL schema). */
export function openServerStorage(server: TestServer): Promise<Storage> {
  const url = server.config.databaseUrl;
  return url === null
    ? openSqliteStorage({ file: join(server.dataDir, 'runledger.sqlite') })
    : openPostgresStorage({ connectionString: url, clock: 'caller' });
}

const BATCH = 2_000;

/**
 * Grows an organization's audit log to `size` receipts through the storage layer (real audit
 * receipts, each chained to the one before, their leaves appended to the `audit` tree in the same
 * transaction), far faster than causing as many audited events over HTTP.
 */
export async function seedAuditLog(storage: Storage, orgId: string, size: number): Promise<void> {
  for (;;) {
    const done = await storage.write(async (tx) => {
      let head = await tx.auditReceipts.head(orgId);
      const first = head === null ? 0 : head.org_seq + 1;
      const count = Math.min(BATCH, size - first);
      if (count <= 0) return true;
      const leaves: Uint8Array[] = [];
      const inserts: Promise<void>[] = [];
      for (let i = 0; i < count; i += 1) {
        const built = buildAuditReceipt({
          head,
          orgId,
          actor: { kind: 'deployment', id: null },
          event: {
            type: 'org.share_identity_changed',
            before: { share_identity: (first + i) % 2 === 0 ? 'email' : 'id' },
            after: { share_identity: (first + i) % 2 === 0 ? 'id' : 'email' },
          },
          now: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, first + i)),
        });
        // Independent statements go out together (the storage pipelines them).
        inserts.push(
          tx.auditReceipts.insert({
            receipt_id: built.receipt_id,
            org_id: orgId,
            org_seq: built.org_seq,
            event_type: 'org.share_identity_changed',
            parent_hash: built.parent_hash,
            receipt_sha256: built.receipt_sha256,
            payload_text: built.payload_text,
            created_at: built.payload.minted_at,
          }),
        );
        leaves.push(receiptLeaf(built.receipt_sha256));
        head = { org_seq: built.org_seq, receipt_sha256: built.receipt_sha256 };
      }
      await Promise.all(inserts);
      await appendLeaves(tx, orgId, AUDIT_LOG, leaves, first);
      return false;
    });
    if (done) return;
  }
}

/** Roots and proofs of a log as runledger computes them from its own storage. */
export function ownProofs(
  storage: Storage,
  orgId: string,
  log: string,
  size: number,
  asked: { roots: number[]; inclusion: number[]; consistency: number[] },
) {
  return storage.read(async (tx) => ({
    root: toHex(await treeRootAt(tx, orgId, log, size)),
    roots: await Promise.all(
      asked.roots.map(async (n) => toHex(await treeRootAt(tx, orgId, log, n))),
    ),
    inclusion: await Promise.all(
      asked.inclusion.map(async (i) =>
        (await inclusionProofAt(tx, orgId, log, i, size)).map(toHex),
      ),
    ),
    consistency: await Promise.all(
      asked.consistency.map(async (n) =>
        (await consistencyProofAt(tx, orgId, log, n, size)).map(toHex),
      ),
    ),
  }));
}
