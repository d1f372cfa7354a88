import type { UserRecord, UsersRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function usersRepository(sql: Sql): UsersRepository {
  return {
    async insert(user) {
      await sql.run('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)', [
        user.id,
        user.email,
        user.created_at,
      ]);
    },
    async byId(id) {
      return (await sql.get<UserRecord>('SELECT * FROM users WHERE id = ?', [id])) ?? null;
    },
    async byEmail(email) {
      return (await sql.get<UserRecord>('SELECT * FROM users WHERE email = ?', [email])) ?? null;
    },
  };
}
