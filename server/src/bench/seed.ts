import { createHash, randomBytes } from 'node:crypto';
import { testCheckpointSigner } from '@runledger/core/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  consoleMailer,
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  systemClock,
} from '@runledger/adapters';
import {
  createRunledger,
  defaultRunledgerConfig,
  type Actor,
  type Runledger,
} from '@runledger/core';
import { GENESIS_PARENT } from '@runledger/verify';
import { type Storage } from '@runledger/core/ports';

export const REPORT = {
  task: 'Summarize the quarterly incident reports',
  status: 'completed',
  agent: { name: 'scribe', model: 'm-1' },
  steps: [
    { name: 'fetch reports', tool: 'http', outcome: 'ok', duration_ms: 1200, cost_usd: '0.10' },
    { name: 'summarize', tool: 'llm', outcome: 'ok', duration_ms: 5400, cost_usd: '0.20' },
  ],
  totals: { cost_usd: '0.30', duration_ms: 6600 },
  budget_usd: '1.00',
  summary: 'Four incidents, all resolved.',
};

export interface SeededOrg {
  email: string;
  projectId: string;
  /** Approved runs, ready for POST /runs/{id}/receipt. */
  approved: string[];
}

/** Runs `fn` over 0..n-1 with at most `width` in flight. */
export async function parallel(n: number, width: number, fn: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** A runledger on `storage` for seeding and in-process benches; its blobs and receipt lines go under `scratch`. */
export async function benchRunledger(
  storage: Storage,
  scratch: string,
): Promise<{ rl: Runledger; close: () => Promise<void> }> {
  const receiptSink = await openJsonlReceiptSink(join(scratch, 'receipts'));
  const rl = createRunledger(
    {
      storage,
      blobs: await openFileBlobStore(join(scratch, 'blobs')),
      receiptSink,
      clock: systemClock(),
      random: cryptoRandom(),
      mailer: consoleMailer(() => undefined),
      checkpointSigner: testCheckpointSigner(),
    },
    defaultRunledgerConfig,
  );
  return { rl, close: () => receiptSink.close() };
}

/** Signs `email` up through its sign-in link: the actor (owner of a new organization) and a project. */
export async function signUp(
  rl: Runledger,
  email: string,
): Promise<{ me: Actor; orgId: string; projectId: string }> {
  const link = new URL((await rl.auth.requestLink(email)).dev_link ?? '');
  const { user, org } = await rl.auth.verifyLink(link.searchParams.get('token') ?? '');
  const me = await rl.auth.resolveUser(user.id, org.id);
  const project = await rl.projects.create(me, { name: 'bench' });
  return { me, orgId: org.id, projectId: project.id };
}

/** Takes a new run through the real flow (evidence, submission, audit) up to approval; its id. */
export async function approvedRun(
  rl: Runledger,
  me: Actor,
  projectId: string,
  title: string,
): Promise<string> {
  const run = await rl.runs.create(me, {
    project_id: projectId,
    flight_sheet_id: 'agent-task-report',
    title,
  });
  await rl.runs.addEvidence(me, run.id, { kind: 'log', label: 'log', content: 'ok' });
  await rl.runs.submit(me, run.id, REPORT);
  await rl.runs.audit(me, run.id);
  await rl.runs.approve(me, run.id, { decision: 'approved', note: 'bench' });
  return run.id;
}

/**
 * Seeds the bench's organizations through the SDK on `storage` before the server starts: one org per
 * entry, each with `approved` runs taken through the real flow up to approval, and a chain of
 * `chain` receipts written straight through the repositories (well-linked rows with placeholder
 * payloads: the mint reads only the head, so they cost what real ones would; the ledger verify of
 * such an org fails, the bench never runs it).
 */
export async function seed(
  storage: Storage,
  orgs: Array<{ email: string; approved: number; chain: number }>,
): Promise<SeededOrg[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'runledger-bench-seed-'));
  const { rl, close } = await benchRunledger(storage, scratch);
  try {
    const seeded: SeededOrg[] = [];
    for (const spec of orgs) {
      const { me, orgId, projectId } = await signUp(rl, spec.email);
      const approved: string[] = [];
      await parallel(spec.approved, 64, async (i) => {
        approved.push(await approvedRun(rl, me, projectId, `seeded ${i}`));
      });
      if (spec.chain > 0) await seedChain(storage, orgId, approved[0]!, spec.chain);
      seeded.push({ email: spec.email, projectId, approved: approved.slice(1) });
    }
    return seeded;
  } finally {
    await close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Appends `count` linked receipts (each on a copy of the template run) to an empty org chain. */
async function seedChain(storage: Storage, orgId: string, templateId: string, count: number) {
  const template = await storage.read((tx) => tx.runs.get(orgId, templateId));
  if (template === null) throw new Error('seed: template run not found');
  const tag = randomBytes(4).toString('hex');
  let parent = GENESIS_PARENT;
  const per = 2000;
  for (let start = 0; start < count; start += per) {
    await storage.write(async (tx) => {
      for (let seq = start; seq < Math.min(count, start + per); seq += 1) {
        const runId = `run_seed${tag}${seq}`;
        const at = new Date(Date.UTC(2020, 0, 1) + seq).toISOString();
        await tx.runs.insert({ ...template, id: runId, state: 'receipted', created_at: at });
        const sha = createHash('sha256').update(`${parent}${seq}`).digest('hex');
        await tx.receipts.insert({
          receipt_id: `rcpt_seed${tag}${seq}`,
          org_id: orgId,
          org_seq: seq,
          run_id: runId,
          parent_hash: parent,
          receipt_sha256: sha,
          payload_text: '{}',
          share_token: `seed${tag}${seq}`,
          created_at: at,
        });
        parent = sha;
      }
    });
  }
}
