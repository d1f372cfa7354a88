import { ReceiptTree } from '../ledger/receipt-tree.js';
import { signCheckpoint } from '../ledger/signed-checkpoint.js';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import type { TreeNode } from '../merkle/nodes.js';
import { inclusionProof } from '../merkle/proof.js';
import type { NoteSigner } from '../note/keys.js';
import { formatTlogProof } from '../tlog-proof/format.js';
import { cosignatureLine } from '../witness/cosignature.js';
import {
  cosignerSigner,
  formatCosignerVkey,
  type CosignerSigner,
} from '../witness/cosigner-key.js';
import { chainOf, TEST_HOST } from './ledger.js';
import { hex } from './vectors.js';

/** Test witnesses with fixed seeds. */
export function testWitness(name: string, fill: number): { signer: CosignerSigner; vkey: string } {
  const signer = cosignerSigner(name, new Uint8Array(32).fill(fill));
  return { signer, vkey: formatCosignerVkey(signer.name, signer.publicKey) };
}

/** A signed note with each witness's cosignature appended, as a log serves it. */
export function cosign(
  note: string,
  witnesses: readonly CosignerSigner[],
  timestamp = 1_700_000_000,
): string {
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  return note + witnesses.map((w) => cosignatureLine(text, w, timestamp)).join('');
}

/** A tlog-proof for receipt `index` of a chain of `n` (org `org_tp`) and its share JSON. */
export function tlogProofFor(
  n: number,
  index: number,
  log: NoteSigner,
  witnesses: readonly CosignerSigner[],
): { text: string; share: unknown } {
  const entries = chainOf(n, 'org_tp');
  const tree = CompactTree.empty();
  const nodes = new Map<string, Uint8Array>();
  const receipts = new ReceiptTree();
  for (const e of entries) {
    receipts.add(e.receipt_sha256);
    tree
      .append(leafHash(hex(e.receipt_sha256)))
      .forEach((node: TreeNode) => nodes.set(`${node.level}/${node.index}`, node.hash));
  }
  const note = signCheckpoint(
    {
      origin: `${TEST_HOST}/orgs/org_tp`,
      size: n,
      rootHash: receipts.root(),
      time: '2026-01-01T00:00:00.000Z',
    },
    log,
  );
  const e = entries[index]!;
  const text = formatTlogProof({
    extra: hex(e.receipt_sha256),
    index,
    hashes: inclusionProof(index, n, (l, i) => nodes.get(`${l}/${i}`)!),
    checkpoint: cosign(note, witnesses),
  });
  const payload = JSON.parse(e.payload_text) as Record<string, unknown>;
  return {
    text,
    share: {
      receipt: {
        receipt_id: e.receipt_id,
        receipt_sha256: e.receipt_sha256,
        org_seq: e.org_seq,
        payload,
      },
    },
  };
}
