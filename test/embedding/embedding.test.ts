import { mkdtemp, rm } from 'node:fs/promises';
import { testCheckpointSigner } from '@runledger/core/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  consoleMailer,
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  openSqliteStorage,
  systemClock,
  type JsonlReceiptSink,
} from '@runledger/adapters';
import { createRunledger, defaultRunledgerConfig } from '@runledger/core';
import type { Storage } from '@runledger/core/ports';
import { goodReport as report } from './world.js';

describe('the embedding example of docs/embedding.md', () => {
  let dir: string;
  let storage: Storage | undefined;
  let receiptSink: JsonlReceiptSink | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-readme-'));
  });
  afterEach(async () => {
    await storage?.close();
    await receiptSink?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes from sign-in to a minted receipt and a verified ledger in-process, without HTTP', async () => {
    // ---- the example, as docs/embedding.md shows it (data dir replaced by a temporary one) ----
    storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
    const blobs = await openFileBlobStore(join(dir, 'blobs'));
    receiptSink = await openJsonlReceiptSink(join(dir, 'receipts'));
    const ports = {
      storage,
      blobs,
      receiptSink,
      clock: systemClock(),
      random: cryptoRandom(),
      mailer: consoleMailer(() => {}),
      checkpointSigner: testCheckpointSigner(),
    };
    const rl = createRunledger(ports, defaultRunledgerConfig);
    const link = new URL((await rl.auth.requestLink('me@example.com')).dev_link ?? '');
    const { user, org } = await rl.auth.verifyLink(link.searchParams.get('token') ?? '');
    const me = await rl.auth.resolveUser(user.id, org.id);
    const project = await rl.projects.create(me, { name: 'Agents' });
    const run = await rl.runs.create(me, {
      project_id: project.id,
      flight_sheet_id: 'agent-task-report',
      title: 'Nightly',
    });
    await rl.runs.addEvidence(me, run.id, {
      kind: 'log',
      label: 'agent log',
      content: 'step 1 ok',
    });
    await rl.runs.submit(me, run.id, report);
    const { verdict } = await rl.runs.audit(me, run.id);
    await rl.runs.approve(me, run.id, { decision: 'approved', note: 'looks right' });
    const { receipt } = await rl.runs.mintReceipt(me, run.id);
    const ledger = await rl.ledger.verify(me);
    // ---- end of the example ----

    expect(verdict).toMatchObject({ outcome: 'pass', severity: 'honey', score: 100 });
    expect(receipt.receipt_id).toMatch(/^rcpt-000000-[0-9a-f]{8}$/);
    expect(receipt.share_url).toBe(`http://localhost:8080/share/${receipt.share_token}`);
    expect(ledger).toEqual({ ok: true, receipts_checked: 1, errors: [] });
    const shared = await rl.share.get(receipt.share_token);
    expect(shared.verified).toBe(true);
    expect(shared.payload).toMatchObject({ org_id: org.id, run: { id: run.id, title: 'Nightly' } });
  });
});
