import type { DeploymentScan, ScannedNode } from '@runledger/adapters';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { sha256Hex, toHex } from '@runledger/verify/hash';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Findings } from './findings.js';
import { TreeCheck } from './tree-check.js';

/** Receipt hashes 0..n-1 and, by definition, every complete subtree node over them. */
function world(n: number) {
  const shas = Array.from({ length: n }, (_, i) => sha256Hex(new TextEncoder().encode(`r${i}`)));
  const leaves = shas.map((sha) => leafHash(receiptLeaf(sha)));
  const levels: Array<Map<number, string>> = [];
  for (let level = 0; 2 ** level <= n; level += 1) {
    const nodes = new Map<number, string>();
    const width = 2 ** level;
    for (let idx = 0; (idx + 1) * width <= n; idx += 1) {
      nodes.set(idx, toHex(merkleRoot(leaves.slice(idx * width, (idx + 1) * width))));
    }
    levels.push(nodes);
  }
  return { shas, leaves, levels };
}

/** The stored nodes, as the storage's keyset pages would give them (a pure in-memory stand-in). */
function scanOf(levels: Array<Map<number, string>>): DeploymentScan {
  const nodesPage = (_o: string, _l: string, level: number, afterIdx: number, limit: number) => {
    const stored = [...(levels[level] ?? new Map<number, string>())]
      .filter(([idx]) => idx > afterIdx)
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([idx, hash]): ScannedNode => ({ idx, hash }));
    return Promise.resolve(stored);
  };
  return { nodesPage } as unknown as DeploymentScan;
}

/** Runs the check over the receipts in pages of `page`, as fsck does. */
async function check(shas: string[], levels: Array<Map<number, string>>, page: number) {
  const findings = new Findings();
  const tree = new TreeCheck(scanOf(levels), { orgId: 'o', log: 'ledger' }, findings, null);
  for (const [i, sha] of shas.entries()) {
    tree.add(sha);
    if ((i + 1) % page === 0) await tree.compare();
  }
  await tree.finish();
  return { findings: findings.list, root: tree.root() };
}

const sizes = fc.integer({ min: 1, max: 200 });
const pages = fc.integer({ min: 1, max: 64 });

describe('TreeCheck', () => {
  it('finds nothing in an intact tree and gives the RFC 9162 root', async () => {
    await fc.assert(
      fc.asyncProperty(sizes, pages, async (n, page) => {
        const { shas, leaves, levels } = world(n);
        const { findings, root } = await check(shas, levels, page);
        expect(findings).toEqual([]);
        expect(toHex(root)).toBe(toHex(merkleRoot(leaves)));
      }),
    );
  });

  it('names exactly the changed node, the missing node, or a node past the chain', async () => {
    await fc.assert(
      fc.asyncProperty(sizes, pages, fc.nat(), fc.nat(), async (n, page, pickLevel, pickIdx) => {
        const { shas, levels } = world(n);
        const level = pickLevel % levels.length;
        const idx = pickIdx % levels[level]!.size;
        const node = { level, index: idx };

        levels[level]!.set(idx, '0'.repeat(64));
        const changed = await check(shas, levels, page);
        expect(changed.findings).toEqual([
          expect.objectContaining({ code: 'node_mismatch', node }),
        ]);

        levels[level]!.delete(idx);
        const missing = await check(shas, levels, page);
        expect(missing.findings).toEqual([expect.objectContaining({ code: 'node_missing', node })]);

        const fresh = world(n).levels;
        fresh[0]!.set(n, 'f'.repeat(64));
        const beyond = await check(shas, fresh, page);
        expect(beyond.findings).toEqual([
          expect.objectContaining({ code: 'node_beyond_chain', node: { level: 0, index: n } }),
        ]);
      }),
    );
  });
});
