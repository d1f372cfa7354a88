import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = process.env['POSTGRES_BIN'] ?? '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL server of a test's own (initdb into a temporary folder, its own port), for tests that
 * stop or restart the database: never the shared one other tests are using.
 */
export interface OwnPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** pg_ctl restart -m fast: every connection is ended, the server comes back on the same port. */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** initdb refuses to run as root: as root, the binaries run as the postgres user. */
async function asPostgresUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-own-pg-'));
  const user = await asPostgresUser();
  if (user !== null) await chown(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const pg = (tool: string, args: string[]) =>
    user === null
      ? run(join(BIN, tool), args)
      : run('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  const ctl = (...args: string[]) =>
    pg('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', ...args]);
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  await ctl('start');
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await ctl('-m', 'fast', 'stop');
      running = false;
    },
    start: async () => {
      await ctl('start');
      running = true;
    },
    restart: async () => {
      await ctl('-m', 'fast', 'restart');
    },
    destroy: async () => {
      if (running) await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
