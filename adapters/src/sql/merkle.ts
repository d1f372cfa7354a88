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
      // The size is one backward probe of the primary key; the right edge is the complete subtree
      // at each level where the size has a bit set, node (level, (size >> level) - 1), each one
      // point lookup: about 1 + popcount(size) probes, not two per level.
      const rows = await sql.all<NodeRow & { size: number | string; hash: string | null }>(
        `WITH RECURSIVE edge(size, level) AS (
           SELECT COALESCE((SELECT MAX(idx) FROM merkle_nodes
                            WHERE org_id = ? AND log = ? AND level = 0) + 1, 0), 0
           UNION ALL
           SELECT size, level + 1 FROM edge WHERE (size >> (level + 1)) > 0
         )
         SELECT e.size, e.level, (e.size >> e.level) - 1 AS idx, (SELECT n.hash FROM merkle_nodes n
           WHERE n.org_id = ? AND n.log = ? AND n.level = e.level
             AND n.idx = (e.size >> e.level) - 1) AS hash
         FROM edge e WHERE ((e.size >> e.level) & 1) = 1`,
        [orgId, log, orgId, log],
      );
      // A node missing from the edge is left out: the append that needs it refuses the tree.
      const nodes = rows.flatMap((row) =>
        row.hash === null ? [] : [toNode({ ...row, hash: row.hash })],
      );
      return { size: rows.length === 0 ? 0 : Number(rows[0]!.size), nodes };
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
