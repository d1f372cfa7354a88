import type { LedgerEntryInput } from '../chain/types.js';
import { formatExportHeader, formatExportLine } from '../export/format.js';
import { ReceiptTree } from '../ledger/receipt-tree.js';
import { signCheckpoint } from '../ledger/signed-checkpoint.js';
import type { NoteSigner } from '../note/keys.js';
import { GENESIS_PARENT } from '../receipts/id.js';
import { generateChain, realisticPayload, type PayloadFactory } from './chain.js';

/** The test deployment's host, as in PUBLIC_BASE_URL. */
export const TEST_HOST = 'runledger.example';

export function chainOf(n: number, org: string, makePayload?: PayloadFactory): LedgerEntryInput[] {
  return [
    ...generateChain(n, makePayload ?? ((seq, parent) => realisticPayload(org, seq, parent))),
  ];
}

/** The checkpoint the server would sign for these receipts. */
export function checkpointFor(
  entries: readonly LedgerEntryInput[],
  org: string,
  signer: NoteSigner,
  time = '2025-02-01T00:00:00.000Z',
): string {
  const tree = new ReceiptTree();
  for (const entry of entries) tree.add(entry.receipt_sha256);
  return signCheckpoint(
    { origin: `${TEST_HOST}/orgs/${org}`, size: tree.size, rootHash: tree.root(), time },
    signer,
  );
}

/** Export lines (without newlines) for a chain; signed when a signer (or a ready checkpoint) is given. */
export function exportLinesOf(
  entries: readonly LedgerEntryInput[],
  org: string,
  sign?: NoteSigner | { checkpoint: string },
): string[] {
  const checkpoint =
    sign === undefined
      ? undefined
      : 'checkpoint' in sign
        ? sign.checkpoint
        : checkpointFor(entries, org, sign);
  return [
    formatExportHeader({
      org_id: org,
      exported_at: '2025-02-01T00:00:00.000Z',
      count: entries.length,
      head_sha256: entries.at(-1)?.receipt_sha256 ?? GENESIS_PARENT,
      ...(checkpoint === undefined ? {} : { checkpoint }),
    }),
    ...entries.map(formatExportLine),
  ];
}
