import { access, readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunledgerError, type Actor, type Runledger } from '@runledger/core';
import {
  goodReply,
  goodReport,
  openRunWorld,
  preparedRun,
  signIn,
  prepareUpload,
  type RunWorld,
} from './world.js';
import { engines } from '../helpers/postgres.js';

describe.each(engines)('%s', (engine) => {
  async function expectCode(promise: Promise<unknown>, code: RunledgerError['code']) {
    const error: unknown = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunledgerError);
    expect((error as RunledgerError).code).toBe(code);
  }

  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );

  describe('runs through the SDK', () => {
    let world: RunWorld;
    let rl: Runledger;
    let owner: Actor;
    beforeEach(async () => {
      world = await openRunWorld(engine);
      rl = world.rl;
      owner = await signIn(rl, 'owner@example.com');
    });
    afterEach(async () => {
      await world.close();
    });

    it('finalizes an all-auto sheet at audit and shows everything in the composite read', async () => {
      const run = await preparedRun(rl, owner);
      const audited = await rl.runs.audit(owner, run.id);
      expect(audited.deterministic).toBe(true);
      expect(audited.needs_grading).toBe(false);
      expect(audited.verdict).toMatchObject({ outcome: 'pass', score: 100 });
      expect(audited.checks.map((c) => c.status)).toEqual(audited.checks.map(() => 'pass'));
      await rl.runs.approve(owner, run.id, { decision: 'approved' });
      const first = await rl.runs.mintReceipt(owner, run.id);
      const again = await rl.runs.mintReceipt(owner, run.id);
      expect(first.created).toBe(true);
      expect(again).toEqual({ receipt: first.receipt, created: false });

      const composite = await rl.runs.get(owner, run.id);
      expect(composite.run.state).toBe('receipted');
      expect(composite.flight_sheet.slug).toBe('agent-task-report');
      expect(composite.evidence).toHaveLength(1);
      expect(composite.submission?.body).toEqual(goodReport);
      expect(composite.checks).toEqual(audited.checks);
      expect(composite.verdict).toEqual(audited.verdict);
      expect(composite.approval).toMatchObject({
        decision: 'approved',
        note: '',
        decided_by: owner.kind === 'user' ? owner.userId : '',
      });
      expect(composite.receipt).toEqual(first.receipt);
      expect(composite.incidents).toEqual([]);
      expect(composite.ownership).toEqual({
        org_id: owner.orgId,
        project_id: run.project_id,
        created_by: composite.run.created_by,
      });
    });

    it('grades a checklist sheet: open checks, PATCH each, findings, approve, receipt', async () => {
      const run = await preparedRun(rl, owner, 'support-reply', goodReply);
      const audited = await rl.runs.audit(owner, run.id);
      expect(audited).toMatchObject({ deterministic: false, needs_grading: true });
      expect(audited.verdict).toBeUndefined();
      const open = audited.checks.filter((c) => c.status === 'open');
      expect(open.map((c) => c.key)).toEqual([
        'answers_the_question',
        'claims_are_accurate',
        'escalation_is_right',
        'tone_fits',
      ]);
      await expectCode(rl.runs.findings(owner, run.id), 'conflict');
      await expectCode(rl.runs.approve(owner, run.id, { decision: 'approved' }), 'conflict');
      await expectCode(rl.runs.verdict(owner, run.id), 'not_found');
      for (const check of open) {
        const status = check.key === 'tone_fits' ? 'flag' : 'pass';
        expect((await rl.runs.gradeCheck(owner, run.id, check.id, { status })).status).toBe(status);
      }
      await expectCode(
        rl.runs.gradeCheck(owner, run.id, open[0]!.id, { status: 'flag' }),
        'conflict',
      );
      expect((await rl.runs.flags(owner, run.id)).flags).toEqual([
        { key: 'tone_fits', severity: 'minor', detail: open[3]!.detail },
      ]);
      const verdict = await rl.runs.findings(owner, run.id);
      expect(verdict).toMatchObject({ outcome: 'pass', severity: 'honey' });
      expect(await rl.runs.findings(owner, run.id)).toEqual(verdict);
      expect(await rl.runs.verdict(owner, run.id)).toEqual(verdict);
      await expectCode(
        rl.runs.gradeCheck(owner, run.id, open[0]!.id, { status: 'pass' }),
        'conflict',
      );
      await rl.runs.approve(owner, run.id, { decision: 'approved', note: 'fine' });
      const { receipt } = await rl.runs.mintReceipt(owner, run.id);
      const shared = await rl.share.get(receipt.share_token);
      expect(shared.verified).toBe(true);
      expect(shared.payload).toMatchObject({
        verdict: { outcome: 'pass' },
        approval: { note: 'fine' },
      });
    });

    it('answers every out-of-order step with 409 and mints nothing for rejected or escalated runs', async () => {
      const project = await rl.projects.create(owner, { name: 'P' });
      const run = await rl.runs.create(owner, {
        project_id: project.id,
        flight_sheet_id: 'fs_agent-task-report_1',
        title: 'x',
      });
      await expectCode(rl.runs.approve(owner, run.id, { decision: 'approved' }), 'conflict');
      await expectCode(rl.runs.audit(owner, run.id), 'conflict');
      await expectCode(rl.runs.findings(owner, run.id), 'conflict');
      await expectCode(rl.runs.mintReceipt(owner, run.id), 'conflict');
      await expectCode(rl.runs.getSubmission(owner, run.id), 'not_found');

      const rejected = await preparedRun(rl, owner, 'agent-task-report', goodReport, project.id);
      await rl.runs.audit(owner, rejected.id);
      await rl.runs.approve(owner, rejected.id, { decision: 'rejected' });
      await expectCode(rl.runs.approve(owner, rejected.id, { decision: 'approved' }), 'conflict');
      await expectCode(rl.runs.mintReceipt(owner, rejected.id), 'conflict');
      await expectCode(rl.runs.submit(owner, rejected.id, goodReport), 'conflict');
      await expectCode(
        rl.runs.addEvidence(owner, rejected.id, { kind: 'note', label: 'n', content: 'c' }),
        'conflict',
      );
      await expectCode(rl.runs.assertCanAddEvidence(owner, rejected.id), 'conflict');

      const escalated = await preparedRun(rl, owner, 'agent-task-report', goodReport, project.id);
      await rl.runs.audit(owner, escalated.id);
      await rl.runs.approve(owner, escalated.id, { decision: 'escalated' });
      await expectCode(rl.runs.mintReceipt(owner, escalated.id), 'conflict');
      expect((await rl.ledger.list(owner, {})).entries).toEqual([]);
      // An escalated run can still be decided by an owner.
      expect((await rl.runs.approve(owner, escalated.id, { decision: 'approved' })).decision).toBe(
        'approved',
      );
      expect((await rl.runs.mintReceipt(owner, escalated.id)).receipt.org_seq).toBe(0);
    });

    it('lets an API key do the work but not decide, and returns a changed run to draft', async () => {
      const { key } = await rl.apiKeys.create(owner, { name: 'ci' });
      const bot = await rl.auth.authenticateApiKey(key);
      const run = await preparedRun(rl, bot);
      await rl.runs.audit(bot, run.id);
      await expectCode(rl.runs.approve(bot, run.id, { decision: 'approved' }), 'forbidden');
      expect((await rl.runs.get(owner, run.id)).run.state).toBe('finalized');
      await rl.runs.addEvidence(bot, run.id, {
        kind: 'url',
        label: 'ref',
        content: 'https://example.com/a',
      });
      const composite = await rl.runs.get(owner, run.id);
      expect(composite.run.state).toBe('draft');
      expect(composite.checks).toEqual([]);
      expect(composite.verdict).toBeNull();
      await expectCode(rl.flightSheets.create(bot, {}), 'forbidden');
    });

    it("hides another org's runs behind 404 on every use case", async () => {
      const run = await preparedRun(rl, owner);
      const stranger = await signIn(rl, 'stranger@example.com');
      // Thunks, started one at a time: on PostgreSQL calls run side by side, and a rejection must
      // not arrive before its expectation is waiting for it.
      const calls: Array<() => Promise<unknown>> = [
        () => rl.runs.get(stranger, run.id),
        () => rl.runs.audit(stranger, run.id),
        () => rl.runs.submit(stranger, run.id, {}),
        () => rl.runs.addEvidence(stranger, run.id, { kind: 'note', label: 'n', content: 'c' }),
        () => rl.runs.assertCanAddEvidence(stranger, run.id),
        () => rl.runs.listEvidence(stranger, run.id),
        () => rl.runs.getSubmission(stranger, run.id),
        () => rl.runs.checks(stranger, run.id),
        () => rl.runs.flags(stranger, run.id),
        () => rl.runs.verdict(stranger, run.id),
        () => rl.runs.findings(stranger, run.id),
        () => rl.runs.approve(stranger, run.id, { decision: 'approved' }),
        () => rl.runs.mintReceipt(stranger, run.id),
        () =>
          rl.runs.create(stranger, {
            project_id: run.project_id,
            flight_sheet_id: 'agent-task-report',
            title: 't',
          }),
      ];
      for (const call of calls) await expectCode(call(), 'not_found');
      expect((await rl.runs.list(stranger, {})).items).toEqual([]);
    });

    it('lists runs by project and state, page by page', async () => {
      const a = await rl.projects.create(owner, { name: 'A' });
      const b = await rl.projects.create(owner, { name: 'B' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        world.clock.advance(1000);
        const run = await rl.runs.create(owner, {
          project_id: i < 3 ? a.id : b.id,
          flight_sheet_id: 'agent-task-report',
          title: `r${i}`,
        });
        ids.push(run.id);
      }
      await rl.runs.submit(owner, ids[1]!, goodReport);
      await rl.runs.audit(owner, ids[1]!);
      const first = await rl.runs.list(owner, { project_id: a.id, limit: 2 });
      const second = await rl.runs.list(owner, {
        project_id: a.id,
        limit: 2,
        after: first.next ?? '',
      });
      expect([...first.items, ...second.items].map((r) => r.id)).toEqual(ids.slice(0, 3));
      expect(second.next).toBeNull();
      expect((await rl.runs.list(owner, { state: 'finalized' })).items.map((r) => r.id)).toEqual([
        ids[1],
      ]);
      expect((await rl.runs.list(owner, { project_id: b.id, state: 'draft' })).items).toHaveLength(
        2,
      );
    });

    it('stores an uploaded file by content, serves its address back, and keeps nothing for a refused upload', async () => {
      const run = await preparedRun(rl, owner);
      const upload = await prepareUpload(world, 'hello file');
      const evidence = await rl.runs.addFileEvidence(owner, run.id, {
        label: 'doc',
        filename: 'a.txt',
        content_type: 'text/plain',
        blob: upload,
      });
      expect(evidence).toMatchObject({
        kind: 'file',
        size: 10,
        filename: 'a.txt',
        content_type: 'text/plain',
      });
      expect(evidence.content).toBeUndefined();
      const file = await rl.runs.evidenceFile(owner, run.id, evidence.id);
      expect(file).toEqual({
        sha256: evidence.sha256,
        size: 10,
        filename: 'a.txt',
        content_type: 'text/plain',
      });
      expect(Buffer.from((await world.blobs.get(file.sha256)) ?? []).toString()).toBe('hello file');
      const note = (await rl.runs.listEvidence(owner, run.id)).find((e) => e.kind === 'log');
      await expectCode(rl.runs.evidenceFile(owner, run.id, note!.id), 'not_found');

      await rl.runs.audit(owner, run.id);
      await rl.runs.approve(owner, run.id, { decision: 'rejected' });
      const refused = await prepareUpload(world, 'never stored');
      await expectCode(
        rl.runs.addFileEvidence(owner, run.id, {
          label: 'x',
          filename: 'b.txt',
          content_type: 'text/plain',
          blob: refused,
        }),
        'conflict',
      );
      const { sha256Hex } = await import('@runledger/verify/hash');
      expect(world.blobs.pathOf(sha256Hex('never stored'))).not.toBeNull();
      expect(await exists(world.blobs.pathOf(sha256Hex('never stored')) ?? '')).toBe(false);
      // The refused upload's spool file is gone too: nothing of it stays on disk.
      expect(await readdir(world.blobs.spoolDir)).toEqual([]);
    });

    it('rejects a submission that is not a JSON object or array', async () => {
      const run = await preparedRun(rl, owner);
      await expectCode(rl.runs.submit(owner, run.id, 'text'), 'invalid_input');
      await expectCode(rl.runs.submit(owner, run.id, 42), 'invalid_input');
      const stored = await rl.runs.submit(owner, run.id, [{ b: 1, a: 2 }]);
      expect(stored.body).toEqual([{ a: 2, b: 1 }]);
      expect(stored.sha256).toBe(
        (await import('@runledger/verify/hash')).sha256Hex('[{"a":2,"b":1}]'),
      );
    });
  });

  describe('flight sheets through the SDK', () => {
    let world: RunWorld;
    let owner: Actor;
    const sheet = (version: string, lane = 'ops') => ({
      slug: 'ops-check',
      name: 'Ops check',
      version,
      lane,
      summary: 's',
      pass_threshold: 80,
      fail_threshold: 50,
      audit_checks: [
        {
          key: 'ok',
          label: 'ok',
          category: 'schema',
          kind: 'auto',
          severity: 'high',
          check: { op: 'schema' },
        },
      ],
      required_output_schema: { type: 'object' },
    });
    beforeEach(async () => {
      world = await openRunWorld(engine);
      owner = await signIn(world.rl, 'owner@example.com');
    });
    afterEach(async () => {
      await world.close();
    });

    it('creates immutable versions: a slug reads the highest, and a version must increase', async () => {
      const { rl } = world;
      const v9 = await rl.flightSheets.create(owner, sheet('1.9.0'));
      const v10 = await rl.flightSheets.create(owner, sheet('1.10.0'));
      expect(v10).toMatchObject({ builtin: false, version: '1.10.0' });
      expect((await rl.flightSheets.get(owner, 'ops-check')).id).toBe(v10.id);
      expect((await rl.flightSheets.get(owner, v9.id)).version).toBe('1.9.0');
      await expectCode(rl.flightSheets.create(owner, sheet('1.10.0')), 'conflict');
      await expectCode(rl.flightSheets.create(owner, sheet('1.2.0')), 'conflict');
      await expectCode(
        rl.flightSheets.create(owner, { ...sheet('2.0.0'), slug: 'support-reply' }),
        'conflict',
      );
      await expectCode(
        rl.flightSheets.create(owner, { ...sheet('2.0.0'), fail_threshold: 90 }),
        'invalid_input',
      );
      const stranger = await signIn(rl, 'stranger@example.com');
      await expectCode(rl.flightSheets.get(stranger, v9.id), 'not_found');
      await expectCode(rl.flightSheets.get(stranger, 'ops-check'), 'not_found');
    });

    it('lists built-in sheets first, then the org’s own, filtered by lane and paged without repeats', async () => {
      const { rl } = world;
      await rl.flightSheets.create(owner, sheet('1.0.0', 'agent'));
      world.clock.advance(1000);
      await rl.flightSheets.create(owner, sheet('1.1.0', 'data'));
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await rl.flightSheets.list(owner, { limit: 2, ...(after ? { after } : {}) });
        seen.push(...page.items.map((s) => `${s.slug}@${s.version}`));
        if (page.next === null) break;
        after = page.next;
      }
      expect(seen).toEqual([
        'agent-task-report@1.0.0',
        'invoice-extraction@1.0.0',
        'support-reply@1.0.0',
        'ops-check@1.0.0',
        'ops-check@1.1.0',
      ]);
      const agent = await rl.flightSheets.list(owner, { lane: 'agent' });
      expect(agent.items.map((s) => s.slug)).toEqual([
        'agent-task-report',
        'support-reply',
        'ops-check',
      ]);
    });
  });
});
