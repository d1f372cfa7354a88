import { mkdtemp, rm } from 'node:fs/promises';
import { testCheckpointSigner } from '@runledger/core/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  openPostgresStorage,
  openSqliteStorage,
  type FileBlobStore,
} from '@runledger/adapters';
import {
  createRunledger,
  defaultRunledgerConfig,
  type Actor,
  type Runledger,
} from '@runledger/core';
import pg from 'pg';
import Database from 'better-sqlite3';
import type { Storage } from '@runledger/core/ports';
import { CapturingMailer, TestClock, signIn } from '../identity/setup.js';
import { freshSchema, type Engine } from '../helpers/postgres.js';

export interface RunWorld {
  rl: Runledger;
  storage: Storage;
  blobs: FileBlobStore;
  clock: TestClock;
  engine: Engine;
  dir: string;
  /**
   * Runs one statement on a second, independent connection to the same database: how an attacker
   * with access to the database edits rows. `?` placeholders on both engines.
   */
  tamper(sql: string, params?: (string | number)[]): Promise<void>;
  close(): Promise<void>;
}

async function sqliteTamper(file: string, sql: string, params: (string | number)[]) {
  const db = new Database(file, { timeout: 5000 });
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

async function postgresTamper(url: string, schema: string, sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  let n = 0;
  try {
    await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await client.end();
  }
}

/** A fresh storage of `engine`, and how to tamper with it from outside. */
async function openStorage(engine: Engine, dir: string) {
  if (engine === 'sqlite') {
    const file = join(dir, 'runledger.sqlite');
    return {
      storage: await openSqliteStorage({ file }),
      tamper: (sql: string, params: (string | number)[]) => sqliteTamper(file, sql, params),
    };
  }
  const { url, schema } = await freshSchema();
  return {
    storage: await openPostgresStorage({ connectionString: url, schema, clock: 'caller' }),
    tamper: (sql: string, params: (string | number)[]) => postgresTamper(url, schema, sql, params),
  };
}

/**
 * The SDK as an embedder wires it: a SQLite file (or a PostgreSQL schema), file blob store, real
 * CSPRNG, a test clock.
 */
export async function openRunWorld(engine: Engine = 'sqlite'): Promise<RunWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-embedding-'));
  const { storage, tamper } = await openStorage(engine, dir);
  const blobs = await openFileBlobStore(join(dir, 'blobs'));
  const receiptSink = await openJsonlReceiptSink(join(dir, 'receipts'));
  const clock = new TestClock();
  const rl = createRunledger(
    {
      storage,
      clock,
      random: cryptoRandom(),
      mailer: new CapturingMailer(false),
      blobs,
      receiptSink,
      checkpointSigner: testCheckpointSigner(),
    },
    { ...defaultRunledgerConfig, publicBaseUrl: 'http://runledger.test' },
  );
  let closed = false;
  return {
    rl,
    storage,
    blobs,
    clock,
    engine,
    dir,
    tamper: (sql, params = []) => tamper(sql, params),
    async close() {
      if (!closed) {
        await storage.close();
        await receiptSink.close();
      }
      closed = true;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export { signIn };

/** A valid agent task report: every auto rule of the built-in agent-task-report sheet passes. */
export const goodReport = {
  task: 'Summarize the quarterly close',
  status: 'completed',
  steps: [
    { name: 'fetch', outcome: 'ok', cost_usd: '0.10' },
    { name: 'summarize', outcome: 'ok', cost_usd: '0.25' },
  ],
  totals: { cost_usd: '0.35' },
  budget_usd: '1.00',
  summary: 'Done.',
};

/** A support reply that passes every auto rule of the built-in support-reply sheet. */
export const goodReply = {
  ticket_id: 'T-1',
  language: 'en',
  reply: { body: 'Thanks, we have reset your plan.' },
  escalate: false,
};

/** A project, and a run on `sheet` with log evidence and a submission, ready for audit. */
export async function preparedRun(
  rl: Runledger,
  actor: Actor,
  sheet = 'agent-task-report',
  submission: unknown = goodReport,
  projectId?: string,
) {
  const project_id = projectId ?? (await rl.projects.create(actor, { name: 'Agents' })).id;
  const run = await rl.runs.create(actor, { project_id, flight_sheet_id: sheet, title: 'Run' });
  await rl.runs.addEvidence(actor, run.id, { kind: 'log', label: 'log', content: 'step 1 ok' });
  await rl.runs.submit(actor, run.id, submission);
  return run;
}

/** An approved run of the all-auto sheet, ready to mint. */
export async function approvedRun(rl: Runledger, owner: Actor, projectId?: string) {
  const run = await preparedRun(rl, owner, 'agent-task-report', goodReport, projectId);
  await rl.runs.audit(owner, run.id);
  await rl.runs.approve(owner, run.id, { decision: 'approved' });
  return run;
}

/** An upload as the server hands it over: streamed into the blob store's spool, not yet added. */
export async function prepareUpload(world: RunWorld, bytes: string | Uint8Array) {
  return world.blobs.prepare(Readable.from([Buffer.from(bytes)]));
}
