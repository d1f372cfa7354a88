import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEDGER_LOG, appendLeaves, treeSize } from '@runledger/core/adapter';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from './storage.js';

const leaf = (i: number) => new TextEncoder().encode(`leaf ${i}`);

describe('the Merkle tail on SQLite', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-merkle-tail-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves a missing node of the right edge out, so an append refuses the tree and writes nothing', async () => {
    const file = join(dir, 'db.sqlite');
    const storage = await openSqliteStorage({ file });
    try {
      await storage.write((tx) =>
        tx.orgs.insert({ id: 'org_1', name: 'One', created_at: '2025-01-01T00:00:00.000Z' }),
      );
      // 6 leaves: the right edge is node 2/0 (leaves 0-3) and node 1/2 (leaves 4-5).
      await storage.write((tx) =>
        appendLeaves(tx, 'org_1', LEDGER_LOG, [0, 1, 2, 3, 4, 5].map(leaf)),
      );
      const tail = await storage.read((tx) => tx.merkle.tail('org_1', LEDGER_LOG));
      expect(tail.size).toBe(6);
      expect(tail.nodes.map((n) => [n.level, n.index])).toEqual([
        [1, 2],
        [2, 0],
      ]);
      const raw = new Database(file);
      raw
        .prepare('DELETE FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = 1 AND idx = 2')
        .run('org_1', LEDGER_LOG);
      raw.close();
      const damaged = await storage.read((tx) => tx.merkle.tail('org_1', LEDGER_LOG));
      expect(damaged.size).toBe(6);
      expect(damaged.nodes.map((n) => [n.level, n.index])).toEqual([[2, 0]]);
      await expect(
        storage.write((tx) => appendLeaves(tx, 'org_1', LEDGER_LOG, [leaf(6)])),
      ).rejects.toThrow(/node 1\/2 is not stored/);
      expect(await storage.read((tx) => treeSize(tx, 'org_1', LEDGER_LOG))).toBe(6);
    } finally {
      await storage.close();
    }
  });
});
