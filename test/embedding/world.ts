import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  openSqliteStorage,
  type FileBlobStore,
} from '@runledger/adapters';
import {
  createRunledger,
  defaultRunledgerConfig,
  type Actor,
  type Runledger,
} from '@runledger/core';
import type { Storage } from '@runledger/core/ports';
import { CapturingMailer, TestClock, signIn } from '../identity/setup.js';

export interface RunWorld {
  rl: Runledger;
  storage: Storage;
  blobs: FileBlobStore;
  clock: TestClock;
  file: string;
  dir: string;
  close(): Promise<void>;
}

/** The SDK as an embedder wires it: SQLite file, file blob store, real CSPRNG, a test clock. */
export async function openRunWorld(): Promise<RunWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-embedding-'));
  const file = join(dir, 'runledger.sqlite');
  const storage = await openSqliteStorage({ file });
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
    },
    { ...defaultRunledgerConfig, publicBaseUrl: 'http://runledger.test' },
  );
  let closed = false;
  return {
    rl,
    storage,
    blobs,
    clock,
    file,
    dir,
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

export async function writeSpool(world: RunWorld, name: string, bytes: string | Uint8Array) {
  const path = join(world.blobs.spoolDir, name);
  await writeFile(path, bytes);
  return path;
}
