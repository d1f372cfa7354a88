import type { ApiKeyRecord, ApiKeysRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

export function apiKeysRepository(sql: Sql): ApiKeysRepository {
  return {
    async insert(k) {
      await sql.run(
        `INSERT INTO api_keys (key_id, org_id, name, prefix, secret_hash, created_at, created_by,
                               last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          k.key_id,
          k.org_id,
          k.name,
          k.prefix,
          k.secret_hash,
          k.created_at,
          k.created_by,
          k.last_used_at,
          k.revoked_at,
        ],
      );
    },
    async byId(keyId) {
      return (
        (await sql.get<ApiKeyRecord>('SELECT * FROM api_keys WHERE key_id = ?', [keyId])) ?? null
      );
    },
    async get(orgId, keyId) {
      const row = await sql.get<ApiKeyRecord>(
        'SELECT * FROM api_keys WHERE org_id = ? AND key_id = ?',
        [orgId, keyId],
      );
      return row ?? null;
    },
    async list(orgId, page) {
      const p = pageClause(page, 'created_at', 'key_id');
      return sql.all<ApiKeyRecord>(`SELECT * FROM api_keys WHERE org_id = ?${p.where} ${p.tail}`, [
        orgId,
        ...p.params,
        ...p.limit,
      ]);
    },
    async revoke(orgId, keyId, now) {
      const result = await sql.run(
        'UPDATE api_keys SET revoked_at = ? WHERE org_id = ? AND key_id = ? AND revoked_at IS NULL',
        [now, orgId, keyId],
      );
      return result.changes === 1;
    },
    async touch(keyId, now) {
      await sql.run('UPDATE api_keys SET last_used_at = ? WHERE key_id = ?', [now, keyId]);
    },
  };
}
