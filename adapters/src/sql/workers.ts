import type { WorkerRecord, WorkersRepository } from '@runledger/core/ports';
import type { NodeClass } from '@runledger/core/schemas';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

export function workersRepository(sql: Sql): WorkersRepository {
  return {
    async insert(w) {
      await sql.run(
        `INSERT INTO workers (worker_id, name, node_class, token_hash, created_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [w.worker_id, w.name, w.node_class, w.token_hash, w.created_at, w.last_seen_at],
      );
    },
    async byId(workerId) {
      const row = await sql.get<WorkerRecord>('SELECT * FROM workers WHERE worker_id = ?', [
        workerId,
      ]);
      return row ?? null;
    },
    async byTokenHash(tokenHash) {
      const row = await sql.get<WorkerRecord>('SELECT * FROM workers WHERE token_hash = ?', [
        tokenHash,
      ]);
      return row ?? null;
    },
    async touch(workerId, at) {
      await sql.run('UPDATE workers SET last_seen_at = ? WHERE worker_id = ?', [at, workerId]);
    },
    async list(page) {
      const p = pageClause(page, 'created_at', 'worker_id');
      const where = p.where === '' ? '' : ` WHERE ${p.where.replace(/^ AND /, '')}`;
      return sql.all<WorkerRecord>(`SELECT * FROM workers${where} ${p.tail}`, [
        ...p.params,
        ...p.limit,
      ]);
    },
    async count() {
      const row = await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM workers');
      return row?.n ?? 0;
    },
    async countByClass() {
      const rows = await sql.all<{ node_class: NodeClass; n: number }>(
        'SELECT node_class, COUNT(*) AS n FROM workers GROUP BY node_class',
      );
      return Object.fromEntries(rows.map((r) => [r.node_class, r.n]));
    },
  };
}
