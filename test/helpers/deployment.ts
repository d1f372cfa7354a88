import { randomBytes } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import { SERVER_BIN, runNode, type Ran } from '../cli/run-cli.js';
import { POSTGRES_URL } from './postgres.js';

/** The environment every server and ops command of one deployment shares. */
export const BASE_ENV = { PUBLIC_BASE_URL: 'http://runledger.test', LOG_LEVEL: 'silent' };

/** `runledger-server <args>` (backup, restore, fsck) as its own process. */
export function ops(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  return runNode(SERVER_BIN, args, { ...BASE_ENV, ...env });
}

const databases: string[] = [];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty PostgreSQL database of its own (not a schema in a shared one): what pg_dump dumps
 * and pg_restore restores whole. Dropped when the test file ends.
 */
export async function ownDatabase(): Promise<string> {
  const name = `rl_ops_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  databases.push(name);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  if (databases.length === 0) return;
  await admin(async (c) => {
    for (const name of databases.splice(0)) {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});

/** The secrets a backup leaves out, carried over by hand as the operator would. */
export async function copySecrets(fromDataDir: string, toDataDir: string): Promise<void> {
  await mkdir(toDataDir, { recursive: true });
  for (const name of ['signing-key', 'jwt-secret']) {
    await copyFile(join(fromDataDir, name), join(toDataDir, name));
  }
}
