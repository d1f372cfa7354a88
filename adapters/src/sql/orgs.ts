import type { OrgRecord, OrgsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function orgsRepository(sql: Sql): OrgsRepository {
  return {
    async insert(org) {
      await sql.run('INSERT INTO orgs (id, name, created_at) VALUES (?, ?, ?)', [
        org.id,
        org.name,
        org.created_at,
      ]);
    },
    async byId(id) {
      return (await sql.get<OrgRecord>('SELECT * FROM orgs WHERE id = ?', [id])) ?? null;
    },
    async ids() {
      const rows = await sql.all<{ id: string }>('SELECT id FROM orgs ORDER BY id');
      return rows.map((row) => row.id);
    },
  };
}
