import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The statement of MerkleStorage.tail (adapters/src/sql/merkle.ts), as the plan test on PostgreSQL
// (postgres-engine.test.ts) also holds it.
const TAIL = `WITH RECURSIVE last_of(level, idx) AS (
   SELECT 0, (SELECT MAX(idx) FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = 0)
   UNION ALL
   SELECT l.level + 1, (SELECT MAX(m.idx) FROM merkle_nodes m
                         WHERE m.org_id = ? AND m.log = ? AND m.level = l.level + 1)
   FROM last_of l WHERE l.idx >= 1
 )
 SELECT l.level, l.idx, (SELECT n.hash FROM merkle_nodes n
   WHERE n.org_id = ? AND n.log = ? AND n.level = l.level AND n.idx = l.idx) AS hash
 FROM last_of l WHERE l.idx IS NOT NULL`;

describe('sqlite query plans of the Merkle tree', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-sqlite-plans-'));
    await (await openSqliteStorage({ file: join(dir, 'db.sqlite') })).close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a tree tail by probes of the primary key down to the level, never walking a whole tree', () => {
    const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${TAIL}`)
        .all('o', 'l', 'o', 'l', 'o', 'l')
        .map((row) => (row as { detail: string }).detail);
      const searches = plan.filter((detail) => /merkle_nodes|\b[mn] USING/.test(detail));
      expect(searches).toHaveLength(3);
      for (const search of searches) expect(search).toMatch(/^SEARCH .*level=\?/);
      expect(plan.join('\n')).not.toMatch(/SCAN (merkle_nodes|m|n)\b/);
    } finally {
      db.close();
    }
  });
});
