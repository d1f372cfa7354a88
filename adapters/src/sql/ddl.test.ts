import { describe, expect, it } from 'vitest';
import { migrations as postgresMigrations } from '../postgres/migrations.js';
import { migrations as sqliteMigrations } from '../sqlite/migrations.js';

const ddl = (migrations: readonly { version: number; name: string; sql: string }[]) =>
  migrations.map((m) => `-- migration ${m.version}: ${m.name}\n${m.sql.trim()}\n`).join('\n');

// The schema each engine gets, written out in full: a change to a released migration shows up here
// (and must not happen: existing databases would not get it); a new migration adds to the end.
describe('the DDL both engines run', () => {
  it('PostgreSQL', async () => {
    await expect(ddl(postgresMigrations)).toMatchFileSnapshot('./__snapshots__/postgres.sql');
  });

  it('SQLite', async () => {
    await expect(ddl(sqliteMigrations)).toMatchFileSnapshot('./__snapshots__/sqlite.sql');
  });

  it('numbers migrations alike in both engines, with the same names', () => {
    expect(postgresMigrations.map((m) => [m.version, m.name])).toEqual(
      sqliteMigrations.map((m) => [m.version, m.name]),
    );
    expect(sqliteMigrations.map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});
