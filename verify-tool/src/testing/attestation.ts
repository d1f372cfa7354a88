import { toHex } from '../hash/hex.js';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import { inclusionProof } from '../merkle/proof.js';
import { receiptLeaf } from '../ledger/receipt-tree.js';
import { keyIdHex, type NoteSigner } from '../note/keys.js';
import type { EnvelopeSigner } from '../attestation/dsse.js';
import type { StatementInput, VerdictOutcome } from '../attestation/statement.js';
import { chainOf, checkpointFor, TEST_HOST } from './ledger.js';
import { realisticPayload } from './chain.js';

export const ATTEST_BASE_URL = `https://${TEST_HOST}`;

/** A chain of run receipts whose verdicts cycle pass, risk, fail, with flight sheet versions as the server writes them. */
export function attestedChain(n: number, org: string) {
  const outcomes: VerdictOutcome[] = ['pass', 'risk', 'fail'];
  return chainOf(n, org, (seq, parent) => ({
    ...realisticPayload(org, seq, parent),
    flight_sheet: {
      id: 'fs_recon_v3',
      slug: 'reconciliation',
      version: '3.0.0',
      sha256: 'ab'.repeat(32),
    },
    verdict: { outcome: outcomes[seq % 3], severity: 'honey', score: [100, 70, 20][seq % 3] },
  }));
}

/** The share JSON and the statement input of receipt `seq`, in a tree of the whole chain signed by `signer`. */
export function attestationFixture(
  entries: ReturnType<typeof attestedChain>,
  org: string,
  seq: number,
  signer: NoteSigner,
) {
  const tree = CompactTree.empty();
  const nodes = new Map<string, Uint8Array>();
  for (const e of entries)
    for (const node of tree.append(leafHash(receiptLeaf(e.receipt_sha256))))
      nodes.set(`${node.level}/${node.index}`, node.hash);
  const hashes = inclusionProof(seq, entries.length, (l, i) => nodes.get(`${l}/${i}`)!).map(toHex);
  const entry = entries[seq]!;
  const note = checkpointFor(entries, org, signer);
  const receipt = {
    receipt_id: entry.receipt_id,
    org_seq: entry.org_seq,
    receipt_sha256: entry.receipt_sha256,
    payload: JSON.parse(entry.payload_text) as StatementInput['receipt']['payload'],
  };
  const inclusion = { leaf_index: seq, tree_size: entries.length, hashes };
  const share = { ...receipt, checkpoint: { checkpoint: note }, inclusion_proof: inclusion };
  const input: StatementInput = {
    receipt,
    baseUrl: ATTEST_BASE_URL,
    shareUrl: `${ATTEST_BASE_URL}/share/${'A'.repeat(43)}`,
    checkpoint: { checkpoint: note, tree_size: entries.length, root_hash: toHex(tree.root()) },
    inclusionProof: inclusion,
  };
  return { share, input };
}

export const envelopeSignerOf = (signer: NoteSigner): EnvelopeSigner => ({
  keyid: keyIdHex(signer.keyId),
  sign: (message) => signer.sign(message),
});
