import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toHex } from '../hash/hex.js';
import { verifyExportFile } from '../io/verify-files.js';
import { CompactTree } from '../merkle/compact.js';
import { leafHash } from '../merkle/hash.js';
import { consistencyProof, inclusionProof } from '../merkle/proof.js';
import type { TreeNode } from '../merkle/nodes.js';
import { verifyConsistency, verifyInclusion } from '../merkle/verify.js';
import { parseCheckpoint } from '../note/checkpoint.js';
import { NoteError } from '../note/errors.js';
import { formatVkey, parseSkey } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { openNote, signNote } from '../note/note.js';
import { hex } from '../testing/vectors.js';

const VECTORS = fileURLToPath(new URL('../../vectors/', import.meta.url));

interface Kat {
  key: { name: string; skey: string; vkey: string };
  leaf_data_hex: string[];
  roots_hex: { size: number; root_hex: string }[];
  inclusion: { leaf_index: number; tree_size: number; hashes: string[] }[];
  consistency: { first: number; second: number; hashes: string[] }[];
  checkpoint_text: string;
  signed_checkpoint: string;
  signed_export: string;
  tampered_checkpoints: { why: string; note: string }[];
}
const kat = JSON.parse(readFileSync(`${VECTORS}merkle-checkpoint.json`, 'utf8')) as Kat;

describe('known answers: the tree and signed checkpoint of chain-3', () => {
  const tree = CompactTree.empty();
  const nodes = new Map<string, Uint8Array>();
  const roots = kat.leaf_data_hex.map((data) => {
    tree
      .append(leafHash(hex(data)))
      .forEach((n: TreeNode) => nodes.set(`${n.level}/${n.index}`, n.hash));
    return toHex(tree.root());
  });
  const getNode = (l: number, i: number) => nodes.get(`${l}/${i}`)!;

  it('grows to the expected roots and generates the expected proofs', () => {
    expect(roots).toEqual(kat.roots_hex.map((r) => r.root_hex));
    for (const p of kat.inclusion) {
      expect(inclusionProof(p.leaf_index, p.tree_size, getNode).map(toHex)).toEqual(p.hashes);
      expect(
        verifyInclusion(
          p.leaf_index,
          p.tree_size,
          leafHash(hex(kat.leaf_data_hex[p.leaf_index]!)),
          p.hashes.map(hex),
          tree.root(),
        ),
      ).toBe(true);
    }
    for (const p of kat.consistency) {
      expect(consistencyProof(p.first, p.second, getNode).map(toHex)).toEqual(p.hashes);
      expect(
        verifyConsistency(
          p.first,
          p.second,
          p.hashes.map(hex),
          hex(kat.roots_hex[p.first - 1]!.root_hex),
          tree.root(),
        ),
      ).toBe(true);
    }
  });

  it('derives the key, signs the checkpoint as Go did, and opens it', () => {
    const signer = parseSkey(kat.key.skey);
    expect(formatVkey(signer.name, signer.publicKey)).toBe(kat.key.vkey);
    expect(signNote(kat.checkpoint_text, [signer])).toBe(kat.signed_checkpoint);
    const opened = openNote(kat.signed_checkpoint, [trustVkey(kat.key.vkey)]);
    expect(toHex(parseCheckpoint(opened.text).rootHash)).toBe(roots[2]);
  });

  it('refuses every tampered checkpoint', () => {
    for (const t of kat.tampered_checkpoints) {
      expect(() => openNote(t.note, [trustVkey(kat.key.vkey)]), t.why).toThrow(NoteError);
    }
  });

  it('verifies the signed export, authorship included', async () => {
    const result = await verifyExportFile(`${VECTORS}${kat.signed_export}`, {
      strict: true,
      keys: [trustVkey(kat.key.vkey)],
    });
    expect(result).toMatchObject({
      ok: true,
      merkle_root: roots[2],
      authorship: { status: 'verified', key_name: kat.key.name },
    });
  });
});
