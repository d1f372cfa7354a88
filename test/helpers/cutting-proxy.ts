import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can cut one connection at a chosen point of a write
 * transaction, to lose a connection where a test needs it (which pg_terminate_backend cannot aim):
 * - `before-commit`: when a write transaction's BEGIN goes out, before anything of it runs;
 * - `after-commit`: once PostgreSQL has answered a write transaction's COMMIT with `COMMIT` (it did
 *   commit), that answer is dropped and the connection cut, so the client cannot know.
 * Reads the protocol loosely: the transactions' own simple-query texts (`BEGIN ISOLATION LEVEL READ
 * COMMITTED` starts a write; a Query of exactly `COMMIT` ends one) and the CommandComplete tag.
 */
export type CutPoint = 'before-commit' | 'after-commit';

export interface CuttingProxy {
  /** host:port to put in a connection URL in place of the database's. */
  address: string;
  /** Cuts the next write transaction at `point`, once. */
  arm(point: CutPoint): void;
  /** Connections cut so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

const WRITE_BEGIN = Buffer.from('BEGIN ISOLATION LEVEL READ COMMITTED');
const READ_BEGIN = Buffer.from('BEGIN ISOLATION LEVEL REPEATABLE READ');
const COMMIT = Buffer.from('COMMIT\0');

/** The markers in `chunk`, in the order they appear. */
function markers(chunk: Buffer): Array<'write' | 'read' | 'commit'> {
  const found: Array<{ at: number; kind: 'write' | 'read' | 'commit' }> = [];
  const scan = (needle: Buffer, kind: 'write' | 'read' | 'commit') => {
    for (let at = chunk.indexOf(needle); at >= 0; at = chunk.indexOf(needle, at + 1)) {
      found.push({ at, kind });
    }
  };
  scan(WRITE_BEGIN, 'write');
  scan(READ_BEGIN, 'read');
  scan(COMMIT, 'commit');
  return found.sort((a, b) => a.at - b.at).map((m) => m.kind);
}

export async function startCuttingProxy(target: {
  host: string;
  port: number;
}): Promise<CuttingProxy> {
  let armed: CutPoint | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let inWrite = false;
    let cutOnCommitReply = false;
    const cut = () => {
      cuts += 1;
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      for (const kind of markers(chunk)) {
        if (kind === 'read') inWrite = false;
        if (kind === 'write') {
          inWrite = true;
          if (armed === 'before-commit') {
            armed = null;
            cut();
            return;
          }
        }
        if (kind === 'commit' && inWrite && armed === 'after-commit') {
          armed = null;
          cutOnCommitReply = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (cutOnCommitReply && chunk.includes(COMMIT)) {
        cutOnCommitReply = false;
        cut();
        return;
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    address: `127.0.0.1:${port}`,
    arm: (point) => void (armed = point),
    get cuts() {
      return cuts;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
