import type { ProjectRecord, ProjectsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

export function projectsRepository(sql: Sql): ProjectsRepository {
  return {
    async insert(p) {
      await sql.run(
        'INSERT INTO projects (id, org_id, name, created_at, created_by) VALUES (?, ?, ?, ?, ?)',
        [p.id, p.org_id, p.name, p.created_at, p.created_by],
      );
    },
    async get(orgId, id) {
      const row = await sql.get<ProjectRecord>(
        'SELECT * FROM projects WHERE org_id = ? AND id = ?',
        [orgId, id],
      );
      return row ?? null;
    },
    async list(orgId, page) {
      const p = pageClause(page, 'created_at', 'id');
      return sql.all<ProjectRecord>(`SELECT * FROM projects WHERE org_id = ?${p.where} ${p.tail}`, [
        orgId,
        ...p.params,
        ...p.limit,
      ]);
    },
  };
}
