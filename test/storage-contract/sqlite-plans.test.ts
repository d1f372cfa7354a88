import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The statement of MerkleStorage.tail (adapters/src/sql/merkle.ts), as the plan test on PostgreSQL
// (postgres-engine.test.ts) also holds it.
const TAIL = `WITH RECURSIVE edge(size, level) AS (
   SELECT COALESCE((SELECT MAX(idx) FROM merkle_nodes
                    WHERE org_id = ? AND log = ? AND level = 0) + 1, 0), 0
   UNION ALL
   SELECT size, level + 1 FROM edge WHERE (size >> (level + 1)) > 0
 )
 SELECT e.size, e.level, (e.size >> e.level) - 1 AS idx, (SELECT n.hash FROM merkle_nodes n
   WHERE n.org_id = ? AND n.log = ? AND n.level = e.level
     AND n.idx = (e.size >> e.level) - 1) AS hash
 FROM edge e WHERE ((e.size >> e.level) & 1) = 1`;

describe('sqlite query plans of the Merkle tree', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-sqlite-plans-'));
    await (await openSqliteStorage({ file: join(dir, 'db.sqlite') })).close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a tree tail by a probe of the primary key for the size and a point lookup per edge node, never walking a whole tree', () => {
    const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${TAIL}`)
        .all('o', 'l', 'o', 'l')
        .map((row) => (row as { detail: string }).detail);
      const searches = plan.filter((detail) => /merkle_nodes|\bn USING/.test(detail));
      expect(searches).toHaveLength(2);
      expect(searches[0]).toMatch(/^SEARCH merkle_nodes USING COVERING INDEX .*level=\?\)/);
      expect(searches[1]).toMatch(/^SEARCH n USING INDEX .*level=\? AND idx=\?\)/);
      expect(plan.join('\n')).not.toMatch(/SCAN (merkle_nodes|m|n)\b/);
    } finally {
      db.close();
    }
  });

  it("reads a mint batch's runs, submissions, evidence and checks by their indexes, per run id, with no table scan", () => {
    const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
    // The four statements of runs.getMany, submissions.hashesOf, evidence.listByRuns and
    // checks.listByRuns (adapters/src/sql), for every batch size up to one statement's 500 ids:
    // without statistics SQLite weighs an IN list's length against a guess of the other terms'
    // rows, so a plan right for three ids can walk a whole org's index for eight.
    const statements: [(ids: string) => string, RegExp][] = [
      [(ids) => `SELECT * FROM runs WHERE id IN (${ids})`, /^SEARCH runs USING INDEX .*\(id=\?\)/],
      [
        (ids) => `SELECT run_id, sha256 FROM submissions WHERE org_id = ? AND run_id IN (${ids})`,
        /^SEARCH submissions USING INDEX .*\(run_id=\?\)/,
      ],
      [
        (ids) =>
          `SELECT run_id, id, kind, label, sha256, size FROM evidence
           WHERE org_id = ? AND run_id IN (${ids}) ORDER BY run_id, created_at, id`,
        /^SEARCH evidence USING INDEX evidence_run \(org_id=\? AND run_id=\?\)/,
      ],
      [
        (ids) =>
          `SELECT run_id, key, category, kind, severity, tier, status, detail FROM checks
           WHERE org_id = ? AND run_id IN (${ids}) ORDER BY run_id, position`,
        /^SEARCH checks USING INDEX checks_run \(org_id=\? AND run_id=\?\)/,
      ],
    ];
    try {
      for (const n of [1, 3, 8, 64, 128, 500]) {
        const ids = Array.from({ length: n }, () => '?').join(', ');
        for (const [statement, search] of statements) {
          const text = statement(ids);
          const params = Array.from(text.matchAll(/\?/g), (_, i) => `v${i}`);
          const plan = db
            .prepare(`EXPLAIN QUERY PLAN ${text}`)
            .all(...params)
            .map((row) => (row as { detail: string }).detail);
          expect(plan[0], `${n} ids: ${statement('…')}`).toMatch(search);
          // Rows come out of the index already in the statement's order: no sort.
          expect(plan.join('\n')).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
        }
      }
    } finally {
      db.close();
    }
  });
});
