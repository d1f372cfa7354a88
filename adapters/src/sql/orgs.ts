import type { OrgRecord, OrgsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function orgsRepository(sql: Sql): OrgsRepository {
  return {
    async insert(org) {
      await sql.run('INSERT INTO orgs (id, name, created_at, share_identity) VALUES (?, ?, ?, ?)', [
        org.id,
        org.name,
        org.created_at,
        org.share_identity ?? 'email',
      ]);
    },
    async byId(id) {
      return (
        (await sql.get<OrgRecord>(
          'SELECT id, name, created_at, share_identity FROM orgs WHERE id = ?',
          [id],
        )) ?? null
      );
    },
    async setShareIdentity(id, value) {
      await sql.run('UPDATE orgs SET share_identity = ? WHERE id = ?', [value, id]);
    },
    async ids() {
      const rows = await sql.all<{ id: string }>('SELECT id FROM orgs ORDER BY id');
      return rows.map((row) => row.id);
    },
  };
}
