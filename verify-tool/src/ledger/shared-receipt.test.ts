import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../hash/hex.js';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import { inclusionProof, consistencyProof } from '../merkle/proof.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { chainOf, checkpointFor } from '../testing/ledger.js';
import { receiptLeaf } from './receipt-tree.js';
import { verifySharedReceipt } from './shared-receipt.js';
import { verifyExtends } from './consistency.js';

const owner = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const keys = [trustVkey(formatVkey(owner.name, owner.publicKey))];
const entries = chainOf(11, 'org_s');
const tree = CompactTree.empty();
const nodes = new Map<string, Uint8Array>();
for (const e of entries)
  for (const n of tree.append(leafHash(receiptLeaf(e.receipt_sha256))))
    nodes.set(`${n.level}/${n.index}`, n.hash);
const getNode = (l: number, i: number) => nodes.get(`${l}/${i}`)!;
const checkpoint = checkpointFor(entries, 'org_s', owner);

function share(seq: number): Record<string, unknown> {
  const e = entries[seq]!;
  return {
    receipt: {
      receipt_id: e.receipt_id,
      org_seq: e.org_seq,
      receipt_sha256: e.receipt_sha256,
      payload: JSON.parse(e.payload_text) as unknown,
    },
    checkpoint,
    inclusion_proof: {
      leaf_index: seq,
      tree_size: entries.length,
      hashes: inclusionProof(seq, entries.length, getNode).map(toHex),
    },
  };
}

describe('verifySharedReceipt', () => {
  it('proves one receipt with its inclusion proof and signed checkpoint, without the export', () => {
    for (let seq = 0; seq < entries.length; seq += 1) {
      expect(verifySharedReceipt(share(seq), { keys })).toMatchObject({
        ok: true,
        findings: [],
        authorship: { status: 'verified' },
      });
    }
    expect(verifySharedReceipt(share(3)).authorship.status).toBe('not_checked');
  });

  it('rejects every single-byte change to the share JSON', () => {
    const text = JSON.stringify(share(5));
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.integer({ min: 1, max: 127 }), (at, xor) => {
        const changed =
          text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ xor) + text.slice(at + 1);
        let doc: unknown;
        try {
          doc = JSON.parse(changed);
        } catch {
          return; // no longer JSON: the CLI reports it as unreadable
        }
        // A change that leaves the same JSON value (e.g. an escape spelled differently) is no change.
        if (JSON.stringify(doc) === text) return;
        expect(verifySharedReceipt(doc, { keys }).ok).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });

  it('rejects a flipped low bit or case bit at every byte of the share JSON', () => {
    const text = JSON.stringify(share(6));
    let changes = 0;
    for (let at = 0; at < text.length; at += 1) {
      for (const xor of [0x01, 0x20]) {
        const changed =
          text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ xor) + text.slice(at + 1);
        let doc: unknown;
        try {
          doc = JSON.parse(changed);
        } catch {
          continue;
        }
        if (JSON.stringify(doc) === text) continue;
        changes += 1;
        expect(verifySharedReceipt(doc, { keys }).ok, `byte ${at} ^ ${xor}`).toBe(false);
      }
    }
    expect(changes).toBeGreaterThan(text.length);
  });

  it('names what failed', () => {
    const s = share(4);
    const edited = { ...s, inclusion_proof: { ...(s.inclusion_proof as object), leaf_index: 5 } };
    expect(verifySharedReceipt(edited, { keys }).findings.map((f) => f.code)).toEqual([
      'field_mismatch',
      'inclusion_invalid',
    ]);
    expect(verifySharedReceipt({ receipt: {} }).findings.map((f) => f.code)).toEqual(['bad_share']);
  });
});

describe('verifyExtends', () => {
  const old = checkpointFor(entries.slice(0, 4), 'org_s', owner);
  it('proves a later checkpoint extends an earlier one with a consistency proof', () => {
    const proof = { first: 4, second: 11, hashes: consistencyProof(4, 11, getNode).map(toHex) };
    expect(
      verifyExtends({ old: { checkpoint: old }, new: { checkpoint }, orgId: 'org_s', keys, proof }),
    ).toMatchObject({ ok: true, old_size: 4, new_size: 11 });
    const bad = { ...proof, hashes: [...proof.hashes.slice(1), proof.hashes[0]] };
    expect(
      verifyExtends({
        old: { checkpoint: old },
        new: { checkpoint },
        orgId: 'org_s',
        keys,
        proof: bad,
      }).findings.map((f) => f.code),
    ).toEqual(['not_extended']);
  });

  it('catches a rewritten history when the later tree is computed from its receipts', () => {
    const forged = chainOf(4, 'org_s', (seq, parent) => ({
      org_id: 'org_s',
      org_seq: seq,
      parent_hash: parent,
      forged: true,
    }));
    const forgedOld = checkpointFor(forged, 'org_s', owner);
    const computed = {
      size: 11,
      rootAtOldSize: rootOf(4),
      root: tree.root(),
    };
    expect(
      verifyExtends({
        old: { checkpoint: old },
        new: { checkpoint },
        orgId: 'org_s',
        keys,
        computed,
      }).ok,
    ).toBe(true);
    expect(
      verifyExtends({
        old: { checkpoint: forgedOld },
        new: { checkpoint },
        orgId: 'org_s',
        keys,
        computed,
      }).findings.map((f) => f.code),
    ).toEqual(['not_extended']);
  });
});

function rootOf(size: number): Uint8Array {
  const t = CompactTree.empty();
  for (const e of entries.slice(0, size)) t.push(leafHash(receiptLeaf(e.receipt_sha256)));
  return t.root();
}
