import type { RouterMemberRecord, RouterMembersRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function routerMembersRepository(sql: Sql): RouterMembersRepository {
  return {
    async insert(m) {
      await sql.run(
        `INSERT INTO router_members (member_id, email, name, created_at, activated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [m.member_id, m.email, m.name, m.created_at, m.activated_at, m.expires_at],
      );
    },
    async byId(memberId) {
      const row = await sql.get<RouterMemberRecord>(
        'SELECT * FROM router_members WHERE member_id = ?',
        [memberId],
      );
      return row ?? null;
    },
    async activate(memberId, activatedAt, expiresAt) {
      const result = await sql.run(
        'UPDATE router_members SET activated_at = ?, expires_at = ? WHERE member_id = ?',
        [activatedAt, expiresAt, memberId],
      );
      return result.changes === 1;
    },
    async counts(now) {
      const row = await sql.get<{ total: number; active: number }>(
        `SELECT (SELECT COUNT(*) FROM router_members) AS total,
                (SELECT COUNT(*) FROM router_members WHERE expires_at > ?) AS active`,
        [now],
      );
      const total = row?.total ?? 0;
      const active = row?.active ?? 0;
      return { active, inactive: total - active };
    },
  };
}
