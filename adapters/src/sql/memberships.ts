import type { MemberRecord, MembershipsRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

const SELECT_MEMBER =
  'SELECT m.org_id, m.user_id, m.role, m.created_at, u.email FROM memberships m JOIN users u ON u.id = m.user_id';

export function membershipsRepository(sql: Sql): MembershipsRepository {
  return {
    async insert(m) {
      await sql.run(
        'INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, ?, ?)',
        [m.user_id, m.org_id, m.role, m.created_at],
      );
    },
    async byUser(userId) {
      return (
        (await sql.get<MemberRecord>(`${SELECT_MEMBER} WHERE m.user_id = ?`, [userId])) ?? null
      );
    },
    async get(orgId, userId) {
      const row = await sql.get<MemberRecord>(
        `${SELECT_MEMBER} WHERE m.org_id = ? AND m.user_id = ?`,
        [orgId, userId],
      );
      return row ?? null;
    },
    async list(orgId, page) {
      const p = pageClause(page, 'm.created_at', 'm.user_id');
      return sql.all<MemberRecord>(`${SELECT_MEMBER} WHERE m.org_id = ?${p.where} ${p.tail}`, [
        orgId,
        ...p.params,
        ...p.limit,
      ]);
    },
    async updateRole(orgId, userId, role) {
      const result = await sql.run(
        'UPDATE memberships SET role = ? WHERE org_id = ? AND user_id = ?',
        [role, orgId, userId],
      );
      return result.changes === 1;
    },
    async remove(orgId, userId) {
      const result = await sql.run('DELETE FROM memberships WHERE org_id = ? AND user_id = ?', [
        orgId,
        userId,
      ]);
      return result.changes === 1;
    },
    async countOwners(orgId) {
      const row = await sql.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM memberships WHERE org_id = ? AND role = 'owner'",
        [orgId],
      );
      return row?.n ?? 0;
    },
  };
}
