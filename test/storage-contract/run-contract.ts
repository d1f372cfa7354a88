import type {
  CheckRecord,
  ReceiptRecord,
  Repositories,
  RunRecord,
  Storage,
} from '@runledger/core/ports';
import { LEDGER_LOG, backfillLedgerTrees, treeRootAt, treeSize } from '@runledger/core/adapter';
import { leafHash, merkleRoot } from '@runledger/verify/merkle';
import { receiptLeaf } from '@runledger/verify/ledger';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:05:00.000Z';
const hex = (c: string) => c.repeat(64);

export async function seed(tx: Repositories, n: number) {
  await tx.orgs.insert({ id: `org_${n}`, name: `Org ${n}`, created_at: T0 });
  await tx.users.insert({ id: `usr_${n}`, email: `u${n}@example.com`, created_at: T0 });
  await tx.projects.insert({
    id: `prj_${n}`,
    org_id: `org_${n}`,
    name: 'P',
    created_at: T0,
    created_by: `usr_${n}`,
  });
}

export function run(id: string, org = 'org_1', over: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    org_id: org,
    project_id: org.replace('org', 'prj'),
    flight_sheet_id: 'fs_x',
    flight_sheet_slug: 'x',
    flight_sheet_version: '1.0.0',
    flight_sheet_sha256: hex('a'),
    title: 'T',
    agent_profile: { name: 'bot', model: 'm' },
    state: 'draft',
    verdict: null,
    approval: null,
    created_at: T0,
    created_by: 'usr_1',
    updated_at: T0,
    ...over,
  };
}

export function receipt(seq: number, runId: string, org = 'org_1'): ReceiptRecord {
  return {
    receipt_id: `rcpt-${String(seq).padStart(6, '0')}-${org}`,
    org_id: org,
    org_seq: seq,
    run_id: runId,
    parent_hash: hex('0'),
    receipt_sha256: hex(String(seq % 10)),
    payload_text: `{"org_seq":${seq}}`,
    share_token: `tok-${org}-${runId}`,
    created_at: T0,
  };
}

function check(id: string, position: number, status: CheckRecord['status']): CheckRecord {
  return {
    id,
    org_id: 'org_1',
    run_id: 'run_1',
    position,
    key: `k${position}`,
    label: 'L',
    category: 'policy',
    kind: 'checklist',
    severity: 'high',
    tier: 'high',
    status,
    detail: 'd',
  };
}

/** Runs, checks, submissions, evidence, flight sheets and receipts: what every storage adapter must show. */
export function describeRunStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`run storage contract: ${name}`, () => {
    let storage: Storage;
    const tx = <T>(fn: (r: Repositories) => Promise<T>) => storage.write(fn);
    beforeEach(async () => {
      storage = await open();
      await tx(async (r) => {
        await seed(r, 1);
        await seed(r, 2);
      });
    });
    afterEach(async () => {
      await storage.close();
    });

    it('round-trips a run and scopes it to its org', async () => {
      await tx((r) => r.runs.insert(run('run_1')));
      expect(await tx((r) => r.runs.get('org_1', 'run_1'))).toEqual(run('run_1'));
      expect(await tx((r) => r.runs.get('org_2', 'run_1'))).toBeNull();
      expect(
        await tx((r) =>
          r.runs.list('org_2', { project_id: null, state: null }, { limit: 9, after: null }),
        ),
      ).toEqual([]);
    });

    it('lists the runs of one flight sheet slug, every version, with the other filters', async () => {
      await tx(async (r) => {
        await r.runs.insert(run('run_1'));
        await r.runs.insert({ ...run('run_2'), flight_sheet_slug: 'other', created_at: T1 });
        await r.runs.insert({ ...run('run_3'), flight_sheet_version: '2.0.0', created_at: T1 });
      });
      const ids = (slug: string, state: 'draft' | null = null) =>
        tx((r) =>
          r.runs.list(
            'org_1',
            { project_id: null, state, flight_sheet_slug: slug },
            { limit: 9, after: null },
          ),
        ).then((rows) => rows.map((row) => row.id));
      expect(await ids('x')).toEqual(['run_1', 'run_3']);
      expect(await ids('other')).toEqual(['run_2']);
      expect(await ids('x', 'draft')).toEqual(
        [run('run_1'), run('run_3')].filter((r) => r.state === 'draft').map((r) => r.id),
      );
      expect(await ids('missing')).toEqual([]);
    });

    it('updates a run only from the expected state, and only in its org', async () => {
      await tx((r) => r.runs.insert(run('run_1')));
      const approval = {
        decision: 'approved' as const,
        note: null,
        decided_by: 'usr_1',
        decided_at: T1,
      };
      expect(
        await tx((r) =>
          r.runs.update('org_1', 'run_1', 'audited', { state: 'finalized', updated_at: T1 }),
        ),
      ).toBe(false);
      expect(
        await tx((r) =>
          r.runs.update('org_2', 'run_1', 'draft', { state: 'finalized', updated_at: T1 }),
        ),
      ).toBe(false);
      expect(
        await tx((r) =>
          r.runs.update('org_1', 'run_1', 'draft', { state: 'approved', approval, updated_at: T1 }),
        ),
      ).toBe(true);
      expect(await tx((r) => r.runs.get('org_1', 'run_1'))).toEqual(
        run('run_1', 'org_1', { state: 'approved', approval, updated_at: T1 }),
      );
    });

    it('reads a run for update in a write: the run of its org, null elsewhere; then the guarded update from what it read matches', async () => {
      await tx((r) => r.runs.insert(run('run_1')));
      expect(await tx((r) => r.runs.getForUpdate('org_2', 'run_1'))).toBeNull();
      expect(await tx((r) => r.runs.getForUpdate('org_1', 'run_9'))).toBeNull();
      const updated = await tx(async (r) => {
        const held = await r.runs.getForUpdate('org_1', 'run_1');
        expect(held).toEqual(run('run_1'));
        return r.runs.update('org_1', 'run_1', held!.state, { state: 'audited', updated_at: T1 });
      });
      expect(updated).toBe(true);
      expect((await tx((r) => r.runs.get('org_1', 'run_1')))?.state).toBe('audited');
    });

    it('replaces checks in rule order and grades only an open one', async () => {
      await tx(async (r) => {
        await r.runs.insert(run('run_1'));
        await r.checks.replace('org_1', 'run_1', [
          check('chk_b', 1, 'open'),
          check('chk_a', 0, 'pass'),
        ]);
      });
      expect((await tx((r) => r.checks.listByRun('org_1', 'run_1'))).map((c) => c.id)).toEqual([
        'chk_a',
        'chk_b',
      ]);
      expect(await tx((r) => r.checks.grade('org_2', 'run_1', 'chk_b', 'flag'))).toBe(false);
      expect(await tx((r) => r.checks.grade('org_1', 'run_1', 'chk_a', 'flag'))).toBe(false);
      expect(await tx((r) => r.checks.grade('org_1', 'run_1', 'chk_b', 'flag'))).toBe(true);
      expect(await tx((r) => r.checks.grade('org_1', 'run_1', 'chk_b', 'pass'))).toBe(false);
      expect((await tx((r) => r.checks.get('org_1', 'run_1', 'chk_b')))?.status).toBe('flag');
      await tx((r) => r.checks.replace('org_1', 'run_1', []));
      expect(await tx((r) => r.checks.listByRun('org_1', 'run_1'))).toEqual([]);
    });

    it('reads many runs at once: their runs, and what receipts record of their submissions, evidence and checks, within the org, each run in order, unknown ids left out', async () => {
      const ids = Array.from({ length: 600 }, (_, i) => `run_${String(i).padStart(3, '0')}`);
      const note = (id: string, runId: string, org: string, at: string) => ({
        id,
        org_id: org,
        run_id: runId,
        kind: 'note' as const,
        label: 'l',
        content: 'c',
        sha256: hex('c'),
        size: 1,
        filename: null,
        content_type: null,
        created_at: at,
        created_by: 'usr_1',
      });
      await tx(async (r) => {
        // 600 ids: more than one statement's worth.
        for (const id of ids) await r.runs.insert(run(id));
        await r.runs.insert(run('run_other', 'org_2'));
        for (const id of ['run_007', 'run_599']) {
          await r.submissions.put({
            run_id: id,
            org_id: 'org_1',
            body_text: `"${id}"`,
            sha256: hex('b'),
            submitted_at: T0,
          });
          await r.evidence.insert(note(`evd_${id}_late`, id, 'org_1', T1));
          await r.evidence.insert(note(`evd_${id}_b`, id, 'org_1', T0));
          await r.evidence.insert(note(`evd_${id}_a`, id, 'org_1', T0));
          await r.checks.replace('org_1', id, [
            { ...check(`chk_${id}_2`, 2, 'pass'), run_id: id },
            { ...check(`chk_${id}_0`, 0, 'pass'), run_id: id },
          ]);
        }
        await r.submissions.put({
          run_id: 'run_other',
          org_id: 'org_2',
          body_text: '{}',
          sha256: hex('b'),
          submitted_at: T0,
        });
        await r.evidence.insert(note('evd_other', 'run_other', 'org_2', T0));
      });
      const asked = [...ids, 'run_missing', 'run_other'];
      const [runs, submissions, evidence, checks] = await tx((r) =>
        Promise.all([
          r.runs.getMany('org_1', asked),
          r.submissions.hashesOf('org_1', asked),
          r.evidence.listByRuns('org_1', asked),
          r.checks.listByRuns('org_1', asked),
        ]),
      );
      expect(runs.map((x) => x.id).sort()).toEqual(ids);
      expect(runs.find((x) => x.id === 'run_042')).toEqual(run('run_042'));
      // Only the hash of a submission and what a receipt records of evidence and checks: never a
      // submission's body or an evidence item's content.
      expect(submissions.sort((a, b) => a.run_id.localeCompare(b.run_id))).toEqual([
        { run_id: 'run_007', sha256: hex('b') },
        { run_id: 'run_599', sha256: hex('b') },
      ]);
      const ofRun = <T extends { run_id: string }>(rows: readonly T[], id: string) =>
        rows.filter((x) => x.run_id === id);
      for (const id of ['run_007', 'run_599']) {
        const fullEvidence = await tx((r) => r.evidence.listByRun('org_1', id));
        expect(fullEvidence.map((e) => e.id)).toEqual([
          `evd_${id}_a`,
          `evd_${id}_b`,
          `evd_${id}_late`,
        ]);
        expect(ofRun(evidence, id)).toEqual(
          fullEvidence.map(({ run_id, id, kind, label, sha256, size }) => ({
            run_id,
            id,
            kind,
            label,
            sha256,
            size,
          })),
        );
        const fullChecks = await tx((r) => r.checks.listByRun('org_1', id));
        expect(fullChecks.map((c) => c.id)).toEqual([`chk_${id}_0`, `chk_${id}_2`]);
        expect(ofRun(checks, id)).toEqual(
          fullChecks.map(({ run_id, key, category, kind, severity, tier, status, detail }) => ({
            run_id,
            key,
            category,
            kind,
            severity,
            tier,
            status,
            detail,
          })),
        );
      }
      expect(evidence).toHaveLength(6);
      expect(checks).toHaveLength(4);
      expect(await tx((r) => r.runs.getMany('org_2', ['run_007', 'run_other']))).toEqual([
        run('run_other', 'org_2'),
      ]);
      expect(await tx((r) => r.runs.getMany('org_1', []))).toEqual([]);
    });

    it('keeps one submission per run, replaced on a second put', async () => {
      await tx((r) => r.runs.insert(run('run_1')));
      const s = {
        run_id: 'run_1',
        org_id: 'org_1',
        body_text: '{}',
        sha256: hex('b'),
        submitted_at: T0,
      };
      await tx((r) => r.submissions.put(s));
      await tx((r) => r.submissions.put({ ...s, body_text: '[]', submitted_at: T1 }));
      expect(await tx((r) => r.submissions.get('org_1', 'run_1'))).toEqual({
        ...s,
        body_text: '[]',
        submitted_at: T1,
      });
      expect(await tx((r) => r.submissions.get('org_2', 'run_1'))).toBeNull();
    });

    it('counts file references to a blob across orgs, ignoring text evidence with the same hash', async () => {
      const evidence = (id: string, org: string, runId: string, kind: 'file' | 'note') => ({
        id,
        org_id: org,
        run_id: runId,
        kind,
        label: 'l',
        content: kind === 'note' ? 'c' : null,
        sha256: hex('c'),
        size: 1,
        filename: kind === 'file' ? 'f' : null,
        content_type: kind === 'file' ? 'text/plain' : null,
        created_at: T0,
        created_by: 'usr_1',
      });
      await tx(async (r) => {
        await r.runs.insert(run('run_1'));
        await r.runs.insert(run('run_2', 'org_2'));
        await r.evidence.insert(evidence('evd_1', 'org_1', 'run_1', 'file'));
        await r.evidence.insert(evidence('evd_2', 'org_2', 'run_2', 'file'));
        await r.evidence.insert(evidence('evd_3', 'org_1', 'run_1', 'note'));
      });
      expect(await tx((r) => r.evidence.countFileRefs(hex('c')))).toBe(2);
      expect(await tx((r) => r.evidence.get('org_2', 'run_1', 'evd_1'))).toBeNull();
      expect((await tx((r) => r.evidence.listByRun('org_1', 'run_1'))).map((e) => e.id)).toEqual([
        'evd_1',
        'evd_3',
      ]);
    });

    it('finds the newest flight sheet version numerically, within the org', async () => {
      const sheet = (id: string, version: string, org = 'org_1') => ({
        id,
        org_id: org,
        content: {
          slug: 'ops',
          name: 'Ops',
          version,
          lane: 'agent',
          summary: '',
          pass_threshold: 80,
          fail_threshold: 50,
          audit_checks: [],
          required_output_schema: {},
        },
        sha256: hex('d'),
        created_at: T0,
        created_by: 'usr_1',
      });
      await tx(async (r) => {
        await r.flightSheets.insert(sheet('fs_10', '1.10.0'));
        await r.flightSheets.insert(sheet('fs_9', '1.9.0'));
        await r.flightSheets.insert(sheet('fs_o', '9.0.0', 'org_2'));
      });
      expect((await tx((r) => r.flightSheets.latestBySlug('org_1', 'ops')))?.id).toBe('fs_10');
      expect(await tx((r) => r.flightSheets.get('org_1', 'fs_o'))).toBeNull();
      await expect(tx((r) => r.flightSheets.insert(sheet('fs_dup', '1.9.0')))).rejects.toThrow();
    });

    describe('receipts', () => {
      beforeEach(async () => {
        await tx(async (r) => {
          for (let i = 0; i < 4; i++) await r.runs.insert(run(`run_${i}`));
          await r.runs.insert(run('run_o', 'org_2'));
        });
      });

      it('refuses a fork (same org_seq) and a second receipt for a run', async () => {
        await tx((r) => r.receipts.insert(receipt(0, 'run_0')));
        await expect(
          tx((r) => r.receipts.insert({ ...receipt(0, 'run_1'), receipt_id: 'other' })),
        ).rejects.toThrow();
        await expect(
          tx((r) => r.receipts.insert({ ...receipt(1, 'run_0'), share_token: 'x' })),
        ).rejects.toThrow();
        // Another org has its own sequence.
        await tx((r) => r.receipts.insert(receipt(0, 'run_o', 'org_2')));
      });

      it('finds a receipt by id only in its org, and counts receipts per org', async () => {
        await tx(async (r) => {
          for (let i = 0; i < 3; i++) await r.receipts.insert(receipt(i, `run_${i}`));
          await r.receipts.insert(receipt(0, 'run_o', 'org_2'));
        });
        const id = receipt(1, 'run_1').receipt_id;
        expect((await tx((r) => r.receipts.byId('org_1', id)))?.org_seq).toBe(1);
        expect(await tx((r) => r.receipts.byId('org_2', id))).toBeNull();
        expect(await tx((r) => r.receipts.counts())).toEqual([
          { org_id: 'org_1', count: 3 },
          { org_id: 'org_2', count: 1 },
        ]);
      });

      it('backfills the ledger tree of receipts stored before it, in org_seq order, once', async () => {
        await tx(async (r) => {
          await r.runs.insert(run('run_4'));
          for (let i = 0; i < 5; i++) await r.receipts.insert(receipt(i, `run_${i}`));
          await r.receipts.insert(receipt(0, 'run_o', 'org_2'));
        });
        expect(await backfillLedgerTrees(storage)).toBe(6);
        expect(await backfillLedgerTrees(storage)).toBe(0);
        const expected = merkleRoot(
          Array.from({ length: 5 }, (_, i) =>
            leafHash(receiptLeaf(receipt(i, 'x').receipt_sha256)),
          ),
        );
        await storage.read(async (r) => {
          expect(await treeSize(r, 'org_1', LEDGER_LOG)).toBe(5);
          expect(await treeRootAt(r, 'org_1', LEDGER_LOG, 5)).toEqual(expected);
          expect(await treeSize(r, 'org_2', LEDGER_LOG)).toBe(1);
        });
      });

      it('reads the head, entries, chunks, recent pages and counts of one org', async () => {
        await tx(async (r) => {
          for (let i = 0; i < 4; i++) await r.receipts.insert(receipt(i, `run_${i}`));
          await r.receipts.insert(receipt(0, 'run_o', 'org_2'));
        });
        expect(await tx((r) => r.receipts.head('org_1'))).toEqual({
          org_seq: 3,
          receipt_sha256: hex('3'),
        });
        expect(await tx((r) => r.receipts.head('org_x'))).toBeNull();
        expect((await tx((r) => r.receipts.entries('org_1', 0, 2))).map((e) => e.org_seq)).toEqual([
          1, 2,
        ]);
        expect(await tx((r) => r.receipts.entries('org_1', 0, 1))).toEqual([
          {
            receipt_id: receipt(1, 'run_1').receipt_id,
            org_seq: 1,
            parent_hash: hex('0'),
            receipt_sha256: hex('1'),
            created_at: T0,
          },
        ]);
        expect(await tx((r) => r.receipts.chunk('org_1', 0, 2, 10))).toEqual([
          receipt(1, 'run_1'),
          receipt(2, 'run_2'),
        ]);
        expect(
          (await tx((r) => r.receipts.recent('org_1', null, 2))).map((e) => e.org_seq),
        ).toEqual([3, 2]);
        expect((await tx((r) => r.receipts.recent('org_1', 2, 5))).map((e) => e.org_seq)).toEqual([
          1, 0,
        ]);
        expect(await tx((r) => r.receipts.count('org_1', 2))).toBe(3);
        expect(await tx((r) => r.receipts.byRun('org_2', 'run_1'))).toBeNull();
        expect(await tx((r) => r.receipts.byRun('org_1', 'run_1'))).toEqual(receipt(1, 'run_1'));
        expect(await tx((r) => r.receipts.byShareToken(receipt(2, 'run_2').share_token))).toEqual(
          receipt(2, 'run_2'),
        );
        expect(await tx((r) => r.receipts.byShareToken('nope'))).toBeNull();
      });
    });
  });
}
