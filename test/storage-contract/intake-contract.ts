import type {
  CheckRecord,
  DatasetRecord,
  IncidentRecord,
  PageQuery,
  PaymentEventRecord,
  Repositories,
  RunRecord,
  Storage,
} from '@runledger/core/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:05:00.000Z';
const T2 = '2025-01-01T00:10:00.000Z';
const T3 = '2025-01-01T00:15:00.000Z';
const hex = (c: string) => c.repeat(64);

async function seed(tx: Repositories, n: number) {
  await tx.orgs.insert({ id: `org_${n}`, name: `Org ${n}`, created_at: T0 });
  await tx.users.insert({ id: `usr_${n}`, email: `u${n}@example.com`, created_at: T0 });
}

async function project(tx: Repositories, id: string, org: string) {
  await tx.projects.insert({ id, org_id: org, name: id, created_at: T0, created_by: 'usr_1' });
}

function run(id: string, projectId: string, created_at: string, org = 'org_1'): RunRecord {
  return {
    id,
    org_id: org,
    project_id: projectId,
    flight_sheet_id: 'fs_x',
    flight_sheet_slug: 'x',
    flight_sheet_version: '1.0.0',
    flight_sheet_sha256: hex('a'),
    title: 'T',
    agent_profile: null,
    state: 'audited',
    verdict: null,
    approval: null,
    created_at,
    created_by: 'usr_1',
    updated_at: created_at,
  };
}

function check(
  runId: string,
  position: number,
  key: string,
  status: CheckRecord['status'],
  org = 'org_1',
): CheckRecord {
  return {
    id: `chk_${runId}_${position}`,
    org_id: org,
    run_id: runId,
    position,
    key,
    label: 'L',
    category: 'policy',
    kind: 'checklist',
    severity: 'high',
    tier: 'high',
    status,
    detail: 'd',
  };
}

/** A run of the project with the given checks, keyed `key:status`. */
async function runWith(
  tx: Repositories,
  r: RunRecord,
  checks: readonly `${string}:${CheckRecord['status']}`[],
) {
  await tx.runs.insert(r);
  await tx.checks.replace(
    r.org_id,
    r.id,
    checks.map((c, i) => {
      const [key = '', status = 'pass'] = c.split(':') as [string, CheckRecord['status']];
      return check(r.id, i, key, status, r.org_id);
    }),
  );
}

function incident(id: string, over: Partial<IncidentRecord> = {}): IncidentRecord {
  return {
    id,
    org_id: 'org_1',
    run_id: 'run_a',
    kind: 'policy_violation',
    note: 'n',
    rule_key: null,
    created_by: 'usr_1',
    created_at: T1,
    ...over,
  };
}

function event(id: string, over: Partial<PaymentEventRecord> = {}): PaymentEventRecord {
  return {
    event_id: id,
    type: 'membership.paid',
    member_id: 'mbr_1',
    amount: '100.00',
    currency: 'USD',
    outcome: 'activated',
    receipt_id: `rr_${id}`,
    received_at: T0,
    ...over,
  };
}

function dataset(id: string, over: Partial<DatasetRecord> = {}): DatasetRecord {
  return {
    dataset_id: id,
    name: `Dataset ${id}`,
    description: null,
    status: 'pending',
    error: null,
    created_at: T0,
    updated_at: T0,
    ...over,
  };
}

/** Reads every page of a list, following the last row as the cursor. */
async function allPages<R>(
  list: (page: PageQuery) => Promise<R[]>,
  key: (row: R) => { created_at: string; id: string },
  limit: number,
): Promise<R[][]> {
  const pages: R[][] = [];
  let after: PageQuery['after'] = null;
  for (;;) {
    const rows = await list({ limit, after });
    const last = rows[rows.length - 1];
    if (last === undefined) return pages;
    pages.push(rows);
    after = key(last);
  }
}

/** Incidents, payment events and dataset staging: what every storage adapter must show. */
export function describeIntakeStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`intake storage contract: ${name}`, () => {
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

    describe('incidents', () => {
      beforeEach(async () => {
        await tx(async (r) => {
          await project(r, 'prj_1', 'org_1');
          await project(r, 'prj_2', 'org_2');
          await r.runs.insert(run('run_a', 'prj_1', T0));
          await r.runs.insert(run('run_b', 'prj_1', T0));
          await r.runs.insert(run('run_o', 'prj_2', T0, 'org_2'));
        });
      });

      it('lists the incidents of one run in (created_at, id) order, only in its org', async () => {
        const rows = [
          incident('inc_a', { created_at: T2 }),
          incident('inc_c', { kind: 'rogue', note: 'went off script' }),
          incident('inc_b', { kind: 'recurring_flag', rule_key: 'k1' }),
          incident('inc_0', { run_id: 'run_b', created_at: T0 }),
        ];
        await tx(async (r) => {
          for (const i of rows) await r.incidents.insert(i);
          await r.incidents.insert(
            incident('inc_o', { org_id: 'org_2', run_id: 'run_o', created_by: 'usr_2' }),
          );
        });
        expect(await tx((r) => r.incidents.listByRun('org_1', 'run_a'))).toEqual([
          incident('inc_b', { kind: 'recurring_flag', rule_key: 'k1' }),
          incident('inc_c', { kind: 'rogue', note: 'went off script' }),
          incident('inc_a', { created_at: T2 }),
        ]);
        expect((await tx((r) => r.incidents.listByRun('org_1', 'run_b'))).map((i) => i.id)).toEqual(
          ['inc_0'],
        );
        expect(await tx((r) => r.incidents.listByRun('org_2', 'run_a'))).toEqual([]);
        expect(await tx((r) => r.incidents.listByRun('org_1', 'run_o'))).toEqual([]);
        expect(await tx((r) => r.incidents.listByRun('org_1', 'run_x'))).toEqual([]);
      });

      it('refuses a second incident with the same id and one for an unknown run', async () => {
        await tx((r) => r.incidents.insert(incident('inc_1')));
        await expect(
          tx((r) => r.incidents.insert(incident('inc_1', { run_id: 'run_b' }))),
        ).rejects.toThrow();
        await expect(
          tx((r) => r.incidents.insert(incident('inc_2', { run_id: 'run_x' }))),
        ).rejects.toThrow();
        expect(await tx((r) => r.incidents.listByRun('org_1', 'run_b'))).toEqual([]);
      });
    });

    describe('flagged keys of earlier runs (recurring_flag)', () => {
      beforeEach(async () => {
        await tx(async (r) => {
          await project(r, 'prj_1', 'org_1');
          await project(r, 'prj_side', 'org_1');
          await project(r, 'prj_2', 'org_2');
          // Earlier runs of prj_1.
          await runWith(r, run('run_1', 'prj_1', T0), ['k1:flag', 'zeta:flag', 'mid:pass']);
          await runWith(r, run('run_2', 'prj_1', T1), ['k1:flag', 'zeta:open', 'alpha:flag']);
          // The same key flagged twice in one run counts that run once.
          await runWith(r, run('run_3', 'prj_1', T1), [
            'k1:flag',
            'k1:flag',
            'zeta:flag',
            'alpha:flag',
            'mid:flag',
          ]);
          // Not earlier than T2: the run being filed against, and a later one.
          await runWith(r, run('run_now', 'prj_1', T2), ['mid:flag', 'late:flag']);
          await runWith(r, run('run_4', 'prj_1', T3), ['mid:flag', 'late:flag']);
          // Another project of the org, and another org.
          await runWith(r, run('run_s1', 'prj_side', T0), ['mid:flag', 'side:flag']);
          await runWith(r, run('run_s2', 'prj_side', T0), ['mid:flag', 'side:flag']);
          await runWith(r, run('run_o1', 'prj_2', T0, 'org_2'), ['mid:flag', 'other:flag']);
          await runWith(r, run('run_o2', 'prj_2', T0, 'org_2'), ['mid:flag', 'other:flag']);
        });
      });

      it('counts distinct earlier runs of the same project per flagged key, most runs first, then by key', async () => {
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_1', T2))).toEqual([
          { key: 'k1', runs: 3 },
          { key: 'alpha', runs: 2 },
          { key: 'zeta', runs: 2 },
          { key: 'mid', runs: 1 },
        ]);
      });

      it('counts only runs created strictly before the given time', async () => {
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_1', T1))).toEqual([
          { key: 'k1', runs: 1 },
          { key: 'zeta', runs: 1 },
        ]);
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_1', T0))).toEqual([]);
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_1', T3))).toEqual([
          { key: 'k1', runs: 3 },
          { key: 'alpha', runs: 2 },
          { key: 'mid', runs: 2 },
          { key: 'zeta', runs: 2 },
          { key: 'late', runs: 1 },
        ]);
      });

      it("sees nothing of another project or another org's runs", async () => {
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_side', T3))).toEqual([
          { key: 'mid', runs: 2 },
          { key: 'side', runs: 2 },
        ]);
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_2', 'prj_1', T3))).toEqual([]);
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_2', T3))).toEqual([]);
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_x', T3))).toEqual([]);
      });

      it('follows the checks as they are now: a re-audit that clears a flag stops counting it', async () => {
        await tx((r) => r.checks.replace('org_1', 'run_3', [check('run_3', 0, 'k1', 'pass')]));
        expect(await tx((r) => r.incidents.flaggedKeysBefore('org_1', 'prj_1', T2))).toEqual([
          { key: 'k1', runs: 2 },
          { key: 'alpha', runs: 1 },
          { key: 'zeta', runs: 1 },
        ]);
      });
    });

    describe('payment events', () => {
      it('stores an event once: a redelivery is reported and leaves the first record', async () => {
        expect(await tx((r) => r.paymentEvents.insert(event('evt_1')))).toBe(true);
        expect(
          await tx((r) =>
            r.paymentEvents.insert(
              event('evt_1', { outcome: 'amount_mismatch', receipt_id: null, received_at: T1 }),
            ),
          ),
        ).toBe(false);
        expect(await tx((r) => r.paymentEvents.byId('evt_1'))).toEqual(event('evt_1'));
        expect(await tx((r) => r.paymentEvents.byId('evt_x'))).toBeNull();
      });

      it('keeps events that wrote no receipt, each under its own id', async () => {
        const ignored = event('evt_2', {
          type: 'membership.refunded',
          member_id: null,
          amount: null,
          currency: null,
          outcome: 'ignored_type',
          receipt_id: null,
        });
        const unknown = event('evt_3', { outcome: 'unknown_member', receipt_id: null });
        expect(await tx((r) => r.paymentEvents.insert(ignored))).toBe(true);
        expect(await tx((r) => r.paymentEvents.insert(unknown))).toBe(true);
        expect(await tx((r) => r.paymentEvents.byId('evt_2'))).toEqual(ignored);
        expect(await tx((r) => r.paymentEvents.byId('evt_3'))).toEqual(unknown);
      });

      it('lets exactly one of several concurrent deliveries of an event id in', async () => {
        const results = await Promise.all(
          [T0, T1, T2].map((at) =>
            tx((r) => r.paymentEvents.insert(event('evt_1', { received_at: at }))),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = [T0, T1, T2][results.indexOf(true)];
        expect((await tx((r) => r.paymentEvents.byId('evt_1')))?.received_at).toBe(winner);
      });

      it('forgets an event whose transaction rolled back, so a retry is not a duplicate', async () => {
        await expect(
          tx(async (r) => {
            expect(await r.paymentEvents.insert(event('evt_1'))).toBe(true);
            throw new Error('activation failed');
          }),
        ).rejects.toThrow('activation failed');
        expect(await tx((r) => r.paymentEvents.byId('evt_1'))).toBeNull();
        expect(await tx((r) => r.paymentEvents.insert(event('evt_1')))).toBe(true);
      });
    });

    describe('dataset staging', () => {
      it('round-trips datasets of every status and counts them', async () => {
        const rows = [
          dataset('dst_p'),
          dataset('dst_s', { status: 'staging', description: 'in flight', updated_at: T1 }),
          dataset('dst_r', { status: 'ready' }),
          dataset('dst_f', { status: 'failed', error: 'checksum mismatch', updated_at: T2 }),
        ];
        await tx(async (r) => {
          for (const d of rows) await r.datasets.insert(d);
        });
        for (const d of rows) {
          expect(await tx((r) => r.datasets.byId(d.dataset_id))).toEqual(d);
        }
        expect(await tx((r) => r.datasets.byId('dst_x'))).toBeNull();
        expect(await tx((r) => r.datasets.count())).toBe(4);
        await expect(tx((r) => r.datasets.insert(dataset('dst_p')))).rejects.toThrow();
      });

      it('pages datasets by (created_at, dataset id) without repeats or gaps', async () => {
        const ids = ['dst_c', 'dst_a', 'dst_e', 'dst_b', 'dst_d'];
        await tx(async (r) => {
          for (const [i, id] of ids.entries()) {
            await r.datasets.insert(dataset(id, { created_at: i === 0 ? T2 : T1 }));
          }
        });
        const pages = await tx((r) =>
          allPages(
            (p) => r.datasets.list(p),
            (d) => ({ created_at: d.created_at, id: d.dataset_id }),
            2,
          ),
        );
        expect(pages.map((p) => p.map((d) => d.dataset_id))).toEqual([
          ['dst_a', 'dst_b'],
          ['dst_d', 'dst_e'],
          ['dst_c'],
        ]);
        expect(await tx((r) => r.datasets.list({ limit: 10, after: null }))).toHaveLength(5);
      });

      it('moves a dataset only from the status the caller read', async () => {
        await tx(async (r) => {
          await r.datasets.insert(dataset('dst_1'));
          await r.datasets.insert(dataset('dst_2'));
        });
        const staging = { status: 'staging' as const, error: null, updated_at: T1 };
        expect(await tx((r) => r.datasets.setStatus('dst_1', 'staging', staging))).toBe(false);
        expect(await tx((r) => r.datasets.setStatus('dst_1', 'ready', staging))).toBe(false);
        expect(await tx((r) => r.datasets.setStatus('dst_x', 'pending', staging))).toBe(false);
        expect(await tx((r) => r.datasets.byId('dst_1'))).toEqual(dataset('dst_1'));

        expect(await tx((r) => r.datasets.setStatus('dst_1', 'pending', staging))).toBe(true);
        expect(await tx((r) => r.datasets.byId('dst_1'))).toEqual(dataset('dst_1', staging));
        // A second request that also read `pending` arrives late: nothing changes.
        expect(
          await tx((r) =>
            r.datasets.setStatus('dst_1', 'pending', {
              status: 'ready',
              error: null,
              updated_at: T2,
            }),
          ),
        ).toBe(false);
        const failed = { status: 'failed' as const, error: 'bad archive', updated_at: T2 };
        expect(await tx((r) => r.datasets.setStatus('dst_1', 'staging', failed))).toBe(true);
        expect(await tx((r) => r.datasets.byId('dst_1'))).toEqual(dataset('dst_1', failed));
        // Only the named dataset moved.
        expect(await tx((r) => r.datasets.byId('dst_2'))).toEqual(dataset('dst_2'));
      });

      it('lets exactly one of several concurrent stage requests from the same status win', async () => {
        await tx((r) => r.datasets.insert(dataset('dst_1')));
        const targets = ['staging', 'ready', 'staging'] as const;
        const results = await Promise.all(
          targets.map((status, i) =>
            tx((r) =>
              r.datasets.setStatus('dst_1', 'pending', {
                status,
                error: null,
                updated_at: [T1, T2, T3][i] ?? T1,
              }),
            ),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const i = results.indexOf(true);
        expect(await tx((r) => r.datasets.byId('dst_1'))).toMatchObject({
          status: targets[i],
          updated_at: [T1, T2, T3][i],
        });
      });
    });
  });
}
