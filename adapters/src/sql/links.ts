import type { LinkRecord, LinksRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

export function linksRepository(sql: Sql): LinksRepository {
  return {
    async insert(l) {
      await sql.run(
        `INSERT INTO links (id, purpose, token_hash, email, org_id, role, created_by, created_at,
                            expires_at, used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          l.id,
          l.purpose,
          l.token_hash,
          l.email,
          l.org_id,
          l.role,
          l.created_by,
          l.created_at,
          l.expires_at,
          l.used_at,
          l.revoked_at,
        ],
      );
    },
    async consume(tokenHash, purpose, now) {
      // Single use: the check and the mark are one statement, so two callers never both win.
      const result = await sql.run(
        `UPDATE links SET used_at = ?
         WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND revoked_at IS NULL
           AND expires_at > ?`,
        [now, tokenHash, purpose, now],
      );
      if (result.changes !== 1) return null;
      return (
        (await sql.get<LinkRecord>('SELECT * FROM links WHERE token_hash = ?', [tokenHash])) ?? null
      );
    },
    async markUsed(id, now) {
      const result = await sql.run(
        `UPDATE links SET used_at = ?
         WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
        [now, id, now],
      );
      return result.changes === 1;
    },
    async pendingInviteFor(email, now) {
      const row = await sql.get<LinkRecord>(
        `SELECT * FROM links
         WHERE email = ? AND purpose = 'invite' AND used_at IS NULL AND revoked_at IS NULL
           AND expires_at > ?
         ORDER BY created_at DESC, id DESC LIMIT 1`,
        [email, now],
      );
      return row ?? null;
    },
    async getInvite(orgId, id) {
      const row = await sql.get<LinkRecord>(
        "SELECT * FROM links WHERE org_id = ? AND id = ? AND purpose = 'invite'",
        [orgId, id],
      );
      return row ?? null;
    },
    async listInvites(orgId, page) {
      const p = pageClause(page, 'created_at', 'id');
      return sql.all<LinkRecord>(
        `SELECT * FROM links WHERE org_id = ? AND purpose = 'invite'${p.where} ${p.tail}`,
        [orgId, ...p.params, ...p.limit],
      );
    },
    async revokeInvite(orgId, id, now) {
      const result = await sql.run(
        `UPDATE links SET revoked_at = ?
         WHERE org_id = ? AND id = ? AND purpose = 'invite' AND revoked_at IS NULL AND used_at IS NULL`,
        [now, orgId, id],
      );
      return result.changes === 1;
    },
  };
}
