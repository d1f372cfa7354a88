import type { MerkleNode, MerkleNodeId, MerkleStorage } from '@runledger/core/ports';
import { fromHex, toHex } from '@runledger/verify/hash';
import type { Sql, SqlParam } from './sql.js';
import { chunks } from './chunks.js';

/** Rows per statement: far below PostgreSQL's 65,535 parameters and SQLite's 500 compound selects; a proof needs about 40. */
const ROWS_PER_STATEMENT = 100;

interface NodeRow {
  level: number | string;
  idx: number | string;
  hash: string;
}

function toNode(row: NodeRow): MerkleNode {
  return {
    level: Number(row.level),
    index: Number(row.idx),
    hash: fromHex(row.hash) as Uint8Array,
  };
}

/** Every query walks the primary key (org_id, log, level, idx). */
export function merkleRepository(sql: Sql): MerkleStorage {
  return {
    async size(orgId, log) {
      const row = await sql.get<{ last: number | string | null }>(
        'SELECT MAX(idx) AS last FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = 0',
        [orgId, log],
      );
      return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
    },
    async tail(orgId, log) {
      // Level l + 1 exists once level l holds two nodes: the walk stops after log2 n + 1 levels,
      // each one backward probe of the primary key, and each hash is one point lookup (a join
      // here lets SQLite's planner walk every node of the tree instead).
      const rows = await sql.all<NodeRow>(
        `WITH RECURSIVE last_of(level, idx) AS (
           SELECT 0, (SELECT MAX(idx) FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = 0)
           UNION ALL
           SELECT l.level + 1, (SELECT MAX(m.idx) FROM merkle_nodes m
                                 WHERE m.org_id = ? AND m.log = ? AND m.level = l.level + 1)
           FROM last_of l WHERE l.idx >= 1
         )
         SELECT l.level, l.idx, (SELECT n.hash FROM merkle_nodes n
           WHERE n.org_id = ? AND n.log = ? AND n.level = l.level AND n.idx = l.idx) AS hash
         FROM last_of l WHERE l.idx IS NOT NULL`,
        [orgId, log, orgId, log, orgId, log],
      );
      const nodes = rows.map(toNode);
      const leaves = nodes.find((n) => n.level === 0);
      return { size: leaves === undefined ? 0 : leaves.index + 1, nodes };
    },
    async nodes(orgId, log, ids) {
      const found: MerkleNode[] = [];
      for (const part of chunks<MerkleNodeId>(ids, ROWS_PER_STATEMENT)) {
        // One primary-key point lookup per node (an OR of pairs would scan the tree's rows).
        const rows = await sql.all<NodeRow>(
          part
            .map(
              () =>
                'SELECT level, idx, hash FROM merkle_nodes WHERE org_id = ? AND log = ? AND level = ? AND idx = ?',
            )
            .join(' UNION ALL '),
          part.flatMap((id) => [orgId, log, id.level, id.index]),
        );
        for (const row of rows) found.push(toNode(row));
      }
      return found;
    },
    async refreshStatistics() {
      const statement = sql.dialect.analyze?.('merkle_nodes');
      if (statement !== undefined) await sql.run(statement);
    },
    async insert(orgId, log, nodes) {
      for (const part of chunks(nodes, ROWS_PER_STATEMENT)) {
        const params: SqlParam[] = [];
        for (const node of part) params.push(orgId, log, node.level, node.index, toHex(node.hash));
        await sql.run(
          `INSERT INTO merkle_nodes (org_id, log, level, idx, hash) VALUES ${part
            .map(() => '(?, ?, ?, ?, ?)')
            .join(', ')}`,
          params,
        );
      }
    },
  };
}
