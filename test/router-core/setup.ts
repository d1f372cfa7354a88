import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { testCheckpointSigner } from '@runledger/core/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  openPostgresStorage,
  openSqliteStorage,
  type JsonlReceiptSink,
} from '@runledger/adapters';
import {
  createRunledger,
  defaultRunledgerConfig,
  type Runledger,
  type RunledgerConfig,
} from '@runledger/core';

export type RouterUseCases = Runledger['router'];
import type { Mailer, RouterReceiptLine, BlobStore, Storage } from '@runledger/core/ports';
import { TestClock } from '../identity/setup.js';
import { freshSchema, type Engine } from '../helpers/postgres.js';

export { TestClock };

const silentMailer: Mailer = { configured: false, send: async () => undefined };

export interface RouterCoreWorld {
  router: RouterUseCases;
  storage: Storage;
  sink: JsonlReceiptSink;
  blobs: BlobStore;
  clock: TestClock;
  dir: string;
  file: string;
  receiptsDir: string;
  config: RunledgerConfig;
  /** Closes storage and sink and opens them again over the same files (a restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real router use cases over a real SQLite file (or a fresh PostgreSQL schema) and a real JSONL
 * sink in a fresh temp dir.
 */
export async function openRouterWorld(
  overrides: Partial<RunledgerConfig> = {},
  clock = new TestClock(),
  engine: Engine = 'sqlite',
): Promise<RouterCoreWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-router-'));
  const file = join(dir, 'runledger.sqlite');
  const receiptsDir = join(dir, 'receipts');
  const config: RunledgerConfig = { ...defaultRunledgerConfig, ...overrides };
  const pgSchema = engine === 'postgres' ? await freshSchema() : null;
  const open = async () => {
    const storage =
      pgSchema === null
        ? await openSqliteStorage({ file })
        : await openPostgresStorage({
            connectionString: pgSchema.url,
            schema: pgSchema.schema,
            clock: 'caller',
          });
    const sink = await openJsonlReceiptSink(receiptsDir);
    const blobs = await openFileBlobStore(join(dir, 'blobs'));
    const rl = createRunledger(
      {
        storage,
        clock,
        random: cryptoRandom(),
        mailer: silentMailer,
        receiptSink: sink,
        blobs,
        checkpointSigner: testCheckpointSigner(),
      },
      config,
    );
    return { storage, sink, blobs, router: rl.router };
  };
  let parts = await open();
  let open_ = true;
  const world: RouterCoreWorld = {
    ...parts,
    clock,
    dir,
    file,
    receiptsDir,
    config,
    async restart() {
      await parts.storage.close();
      await parts.sink.close();
      parts = await open();
      Object.assign(world, parts);
    },
    async close() {
      if (open_) {
        await parts.storage.close();
        await parts.sink.close();
      }
      open_ = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** Every receipt line of every day file, in file then line order. */
export async function readReceipts(receiptsDir: string): Promise<RouterReceiptLine[]> {
  const names = (await readdir(receiptsDir)).filter((n) => n.endsWith('.receipts.jsonl')).sort();
  const lines: RouterReceiptLine[] = [];
  for (const name of names) {
    const text = await readFile(join(receiptsDir, name), 'utf8');
    for (const line of text.split('\n')) {
      if (line !== '') lines.push(JSON.parse(line) as RouterReceiptLine);
    }
  }
  return lines;
}

/** An active member. */
export async function activeMember(router: RouterUseCases, email = 'ada@example.com') {
  const m = await router.createMember({ email, name: 'Ada' });
  await router.activateMember(m.member_id);
  return m.member_id;
}

/** Expects a RunledgerError with this code (the HTTP layer maps it to a status). */
export async function rejectsWith(promise: Promise<unknown>, code: string): Promise<string> {
  try {
    await promise;
  } catch (e) {
    const err = e as { code?: string; message: string };
    if (err.code !== code)
      throw new Error(`expected ${code}, got ${String(err.code)}: ${err.message}`, { cause: e });
    return err.message;
  }
  throw new Error(`expected ${code}, but it succeeded`);
}
