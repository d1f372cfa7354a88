import { CLAIM_FENCES } from '@runledger/core/adapter';
import type {
  Repositories,
  Storage,
  TribunalTaskChange,
  TribunalTaskRecord,
  TribunalVerdictChange,
  TribunalVerdictRecord,
} from '@runledger/core/ports';
import type { CheckDraft, Verdict } from '@runledger/core/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const T0 = '2025-01-01T00:00:00.000Z';
const T1 = '2025-01-01T00:05:00.000Z';
const T2 = '2025-01-01T00:10:00.000Z';
const T3 = '2025-01-01T00:15:00.000Z';
const hex = (c: string) => c.repeat(64);
const TOKEN = hex('a');

async function seed(tx: Repositories, n: number) {
  await tx.orgs.insert({ id: `org_${n}`, name: `Org ${n}`, created_at: T0 });
  await tx.users.insert({ id: `usr_${n}`, email: `u${n}@example.com`, created_at: T0 });
}

function verdictRecord(
  id: string,
  over: Partial<TribunalVerdictRecord> = {},
): TribunalVerdictRecord {
  return {
    verdict_id: id,
    org_id: 'org_1',
    status: 'queued',
    flight_sheet_id: null,
    flight_sheet_slug: 'ops',
    flight_sheet_version: '1.0.0',
    flight_sheet_sha256: hex('b'),
    flight_sheet_text: '{"slug":"ops"}',
    submission_text: '{"answer":42}',
    submission_sha256: hex('c'),
    evidence_text: '[]',
    checks: null,
    verdict: null,
    error: null,
    graded_at: null,
    history: [],
    created_by: 'usr_1',
    created_at: T0,
    updated_at: T0,
    ...over,
  };
}

const checks: CheckDraft[] = [
  {
    key: 'k1',
    label: 'Answer present',
    category: 'structure',
    kind: 'auto',
    severity: 'high',
    tier: 'high',
    status: 'pass',
    detail: 'present',
  },
  {
    key: 'k2',
    label: 'Cites a source',
    category: 'evidence',
    kind: 'checklist',
    severity: 'low',
    tier: 'low',
    status: 'open',
    detail: 'a grader decides',
  },
];

const verdict: Verdict = {
  severity: 'jelly',
  outcome: 'risk',
  score: 70,
  pass_threshold: 80,
  fail_threshold: 50,
  counts: { pass: 1, flag: 0, open: 1, skip: 0 },
};

const graded: TribunalVerdictChange = {
  status: 'complete',
  checks,
  verdict,
  error: null,
  graded_at: T1,
  history: [
    {
      checks: null,
      verdict: null,
      error: 'runner crashed',
      graded_at: T0,
      reason: 'retry',
      regraded_by: 'usr_1',
      regraded_at: T1,
    },
  ],
  updated_at: T1,
};

function task(id: string, verdictId: string, over: Partial<TribunalTaskRecord> = {}) {
  const record: TribunalTaskRecord = {
    task_id: id,
    verdict_id: verdictId,
    status: 'queued',
    attempt: 1,
    claim_epoch: 0,
    claim_token_hash: null,
    claim_expires_at: null,
    runner_id: null,
    message: null,
    created_at: T0,
    updated_at: T0,
    ...over,
  };
  return record;
}

/** A task claimed at epoch 1 by `TOKEN` until T1. */
const claimed = (id: string, verdictId: string, over: Partial<TribunalTaskRecord> = {}) =>
  task(id, verdictId, {
    status: 'claimed',
    claim_epoch: 1,
    claim_token_hash: TOKEN,
    claim_expires_at: T1,
    runner_id: 'runner_1',
    ...over,
  });

/** The change columns of a record: what applyFenced writes. */
function changeOf(r: TribunalTaskRecord): TribunalTaskChange {
  const { task_id: _t, verdict_id: _v, created_at: _c, ...change } = r;
  return change;
}

/** Tribunal verdicts and their grading tasks: what every storage adapter must show. */
export function describeTribunalStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`tribunal storage contract: ${name}`, () => {
    let storage: Storage;
    const tx = <T>(fn: (r: Repositories) => Promise<T>) => storage.write(fn);
    beforeEach(async () => {
      storage = await open();
      await tx(async (r) => {
        await seed(r, 1);
        await seed(r, 2);
        for (let i = 1; i <= 6; i++) await r.tribunalVerdicts.insert(verdictRecord(`tv_${i}`));
      });
    });
    afterEach(async () => {
      await storage.close();
    });

    describe('verdicts', () => {
      it('round-trips a verdict with its checks, verdict and history, and scopes get to the org', async () => {
        const full = verdictRecord('tv_full', { flight_sheet_id: 'fs_1', ...graded });
        await tx((r) => r.tribunalVerdicts.insert(full));
        expect(await tx((r) => r.tribunalVerdicts.get('org_1', 'tv_full'))).toEqual(full);
        expect(await tx((r) => r.tribunalVerdicts.get('org_1', 'tv_1'))).toEqual(
          verdictRecord('tv_1'),
        );
        expect(await tx((r) => r.tribunalVerdicts.get('org_2', 'tv_full'))).toBeNull();
        expect(await tx((r) => r.tribunalVerdicts.get('org_1', 'tv_x'))).toBeNull();
      });

      it('reads a verdict by id alone, whatever its org', async () => {
        await tx((r) =>
          r.tribunalVerdicts.insert(
            verdictRecord('tv_o', { org_id: 'org_2', created_by: 'usr_2' }),
          ),
        );
        expect(await tx((r) => r.tribunalVerdicts.byId('tv_o'))).toEqual(
          verdictRecord('tv_o', { org_id: 'org_2', created_by: 'usr_2' }),
        );
        expect(await tx((r) => r.tribunalVerdicts.byId('tv_x'))).toBeNull();
      });

      it('refuses a second verdict with the same id and one for an unknown org', async () => {
        await expect(
          tx((r) => r.tribunalVerdicts.insert(verdictRecord('tv_1', { org_id: 'org_2' }))),
        ).rejects.toThrow();
        await expect(
          tx((r) => r.tribunalVerdicts.insert(verdictRecord('tv_9', { org_id: 'org_x' }))),
        ).rejects.toThrow();
        expect((await tx((r) => r.tribunalVerdicts.byId('tv_1')))?.org_id).toBe('org_1');
      });

      it('updates a verdict only while it still has the expected status', async () => {
        expect(await tx((r) => r.tribunalVerdicts.update('tv_1', 'grading', graded))).toBe(false);
        expect(await tx((r) => r.tribunalVerdicts.byId('tv_1'))).toEqual(verdictRecord('tv_1'));
        expect(
          await tx((r) =>
            r.tribunalVerdicts.update('tv_1', 'queued', {
              ...graded,
              status: 'grading',
              checks: null,
              verdict: null,
              graded_at: null,
              history: [],
            }),
          ),
        ).toBe(true);
        expect(await tx((r) => r.tribunalVerdicts.update('tv_1', 'grading', graded))).toBe(true);
        expect(await tx((r) => r.tribunalVerdicts.byId('tv_1'))).toEqual(
          verdictRecord('tv_1', graded),
        );
        // A repeat from the old status changes nothing, and neither does an unknown id.
        expect(
          await tx((r) =>
            r.tribunalVerdicts.update('tv_1', 'grading', { ...graded, status: 'failed' }),
          ),
        ).toBe(false);
        expect(await tx((r) => r.tribunalVerdicts.update('tv_x', 'queued', graded))).toBe(false);
        expect((await tx((r) => r.tribunalVerdicts.byId('tv_1')))?.status).toBe('complete');
        // The update touched only its own verdict.
        expect(await tx((r) => r.tribunalVerdicts.byId('tv_2'))).toEqual(verdictRecord('tv_2'));
      });
    });

    describe('tasks', () => {
      it('round-trips a task and finds nothing for an unknown id', async () => {
        const t = claimed('tt_1', 'tv_1', { message: 'reading', attempt: 2, updated_at: T1 });
        await tx((r) => r.tribunalTasks.insert(t));
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(t);
        expect(await tx((r) => r.tribunalTasks.byId('tt_x'))).toBeNull();
        await expect(
          tx((r) => r.tribunalTasks.insert(task('tt_2', 'tv_missing'))),
        ).rejects.toThrow();
      });

      it('keeps at most one queued or claimed task per verdict', async () => {
        await tx((r) => r.tribunalTasks.insert(claimed('tt_1', 'tv_1')));
        await expect(tx((r) => r.tribunalTasks.insert(task('tt_2', 'tv_1')))).rejects.toThrow();
        await expect(tx((r) => r.tribunalTasks.insert(claimed('tt_3', 'tv_1')))).rejects.toThrow();
        expect(await tx((r) => r.tribunalTasks.byId('tt_2'))).toBeNull();
        expect(await tx((r) => r.tribunalTasks.byId('tt_3'))).toBeNull();
        // Finished tasks do not count, and another verdict has its own slot.
        await tx(async (r) => {
          await r.tribunalTasks.insert(task('tt_4', 'tv_1', { status: 'completed' }));
          await r.tribunalTasks.insert(task('tt_5', 'tv_1', { status: 'failed' }));
          await r.tribunalTasks.insert(task('tt_6', 'tv_2'));
        });
        // Once the live task completes, a regrade may enqueue a new one.
        const done = changeOf(
          task('tt_1', 'tv_1', { status: 'completed', claim_epoch: 1, updated_at: T0 }),
        );
        const guard = { claim_epoch: 1, token_hash: TOKEN, now: T0 };
        expect(
          await tx((r) => r.tribunalTasks.applyFenced('tt_1', CLAIM_FENCES.complete, guard, done)),
        ).toBe(true);
        await tx((r) => r.tribunalTasks.insert(task('tt_7', 'tv_1')));
        expect(await tx((r) => r.tribunalTasks.byId('tt_7'))).toEqual(task('tt_7', 'tv_1'));
      });

      it('claims a queued task only at the epoch read with it, and only once', async () => {
        await tx(async (r) => {
          await r.tribunalTasks.insert(task('tt_1', 'tv_1'));
          await r.tribunalTasks.insert(task('tt_2', 'tv_2', { status: 'completed' }));
        });
        const claim = (id: string, epoch: number) =>
          tx((r) =>
            r.tribunalTasks.applyFenced(
              id,
              CLAIM_FENCES.claim,
              { claim_epoch: epoch },
              changeOf(claimed(id, 'tv_1', { updated_at: T0 })),
            ),
          );
        expect(await claim('tt_1', 1)).toBe(false);
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(task('tt_1', 'tv_1'));
        expect(await claim('tt_2', 0)).toBe(false);
        expect((await tx((r) => r.tribunalTasks.byId('tt_2')))?.status).toBe('completed');
        expect(await claim('tt_x', 0)).toBe(false);
        expect(await claim('tt_1', 0)).toBe(true);
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(claimed('tt_1', 'tv_1'));
        // The second claim read the same epoch 0, but the row has moved on.
        expect(await claim('tt_1', 0)).toBe(false);
      });

      it('lets exactly one of several racing claims of the same task win', async () => {
        await tx((r) => r.tribunalTasks.insert(task('tt_1', 'tv_1')));
        const results = await Promise.all(
          ['b', 'c', 'd'].map((c) =>
            tx((r) =>
              r.tribunalTasks.applyFenced(
                'tt_1',
                CLAIM_FENCES.claim,
                { claim_epoch: 0 },
                changeOf(claimed('tt_1', 'tv_1', { claim_token_hash: hex(c) })),
              ),
            ),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = ['b', 'c', 'd'][results.indexOf(true)] ?? '';
        expect((await tx((r) => r.tribunalTasks.byId('tt_1')))?.claim_token_hash).toBe(hex(winner));
      });

      for (const event of ['status', 'complete', 'fail'] as const) {
        it(`applies a ${event} only with the right epoch and token to an unexpired claim`, async () => {
          await tx(async (r) => {
            await r.tribunalTasks.insert(claimed('tt_1', 'tv_1'));
            // Same claim columns on another task: the update must touch only the named one.
            await r.tribunalTasks.insert(claimed('tt_2', 'tv_2'));
          });
          const fence = CLAIM_FENCES[event];
          const next: TribunalTaskRecord =
            event === 'status'
              ? claimed('tt_1', 'tv_1', {
                  claim_expires_at: T2,
                  message: 'half way',
                  updated_at: T0,
                })
              : task('tt_1', 'tv_1', {
                  status: event === 'complete' ? 'completed' : 'failed',
                  claim_epoch: 1,
                  runner_id: 'runner_1',
                  message: 'done',
                  updated_at: T0,
                });
          const ok = { claim_epoch: 1, token_hash: TOKEN, now: T0 };
          const refused = [
            { ...ok, claim_epoch: 0 },
            { ...ok, claim_epoch: 2 },
            { ...ok, token_hash: hex('e') },
            { ...ok, now: T1 }, // the instant the claim expires
            { ...ok, now: T2 },
          ];
          for (const guard of refused) {
            expect(
              await tx((r) => r.tribunalTasks.applyFenced('tt_1', fence, guard, changeOf(next))),
            ).toBe(false);
          }
          expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(claimed('tt_1', 'tv_1'));
          expect(
            await tx((r) => r.tribunalTasks.applyFenced('tt_1', fence, ok, changeOf(next))),
          ).toBe(true);
          expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(next);
          expect(await tx((r) => r.tribunalTasks.byId('tt_2'))).toEqual(claimed('tt_2', 'tv_2'));
        });
      }

      it('refuses a held-claim change to a task that is not claimed', async () => {
        // Claim columns that would match, on tasks whose status the fence does not allow.
        await tx(async (r) => {
          await r.tribunalTasks.insert(claimed('tt_q', 'tv_1', { status: 'queued' }));
          await r.tribunalTasks.insert(claimed('tt_c', 'tv_2', { status: 'completed' }));
          await r.tribunalTasks.insert(claimed('tt_f', 'tv_3', { status: 'failed' }));
        });
        const ok = { claim_epoch: 1, token_hash: TOKEN, now: T0 };
        for (const [id, v] of [
          ['tt_q', 'tv_1'],
          ['tt_c', 'tv_2'],
          ['tt_f', 'tv_3'],
        ] as const) {
          const before = await tx((r) => r.tribunalTasks.byId(id));
          const next = changeOf(task(id, v, { status: 'completed', updated_at: T1 }));
          for (const event of ['status', 'complete', 'fail', 'expire'] as const) {
            const guard = event === 'expire' ? { claim_epoch: 1, now: T3 } : ok;
            expect(
              await tx((r) => r.tribunalTasks.applyFenced(id, CLAIM_FENCES[event], guard, next)),
            ).toBe(false);
          }
          expect(await tx((r) => r.tribunalTasks.byId(id))).toEqual(before);
        }
      });

      it('expires a claim only once its expiry has passed, whoever holds it', async () => {
        await tx((r) => r.tribunalTasks.insert(claimed('tt_1', 'tv_1')));
        const requeued = task('tt_1', 'tv_1', { attempt: 2, claim_epoch: 1, updated_at: T1 });
        const expire = (guard: { claim_epoch: number; now: string }) =>
          tx((r) =>
            r.tribunalTasks.applyFenced('tt_1', CLAIM_FENCES.expire, guard, changeOf(requeued)),
          );
        expect(await expire({ claim_epoch: 1, now: T0 })).toBe(false);
        expect(await expire({ claim_epoch: 0, now: T1 })).toBe(false);
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(claimed('tt_1', 'tv_1'));
        expect(await expire({ claim_epoch: 1, now: T1 })).toBe(true);
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(requeued);
        expect(await expire({ claim_epoch: 1, now: T2 })).toBe(false);
        // The old holder's token no longer moves the requeued task.
        expect(
          await tx((r) =>
            r.tribunalTasks.applyFenced(
              'tt_1',
              CLAIM_FENCES.complete,
              { claim_epoch: 1, token_hash: TOKEN, now: T0 },
              changeOf(task('tt_1', 'tv_1', { status: 'completed' })),
            ),
          ),
        ).toBe(false);
        expect(await tx((r) => r.tribunalTasks.byId('tt_1'))).toEqual(requeued);
      });

      it('lists queued tasks oldest first, by (created_at, task id), up to the limit', async () => {
        await tx(async (r) => {
          await r.tribunalTasks.insert(task('tt_b', 'tv_1', { created_at: T1 }));
          await r.tribunalTasks.insert(task('tt_a', 'tv_2', { created_at: T1 }));
          await r.tribunalTasks.insert(task('tt_c', 'tv_3', { created_at: T2 }));
          await r.tribunalTasks.insert(task('tt_z', 'tv_4', { created_at: T0 }));
          await r.tribunalTasks.insert(claimed('tt_0', 'tv_5', { created_at: T0 }));
          await r.tribunalTasks.insert(task('tt_1', 'tv_6', { status: 'failed' }));
        });
        const ids = (rows: TribunalTaskRecord[]) => rows.map((t) => t.task_id);
        expect(ids(await tx((r) => r.tribunalTasks.oldestQueued(10)))).toEqual([
          'tt_z',
          'tt_a',
          'tt_b',
          'tt_c',
        ]);
        expect(ids(await tx((r) => r.tribunalTasks.oldestQueued(2)))).toEqual(['tt_z', 'tt_a']);
        expect((await tx((r) => r.tribunalTasks.oldestQueued(1)))[0]).toEqual(
          task('tt_z', 'tv_4', { created_at: T0 }),
        );
      });

      it('lists claimed tasks whose claim has expired at now, oldest expiry first, up to the limit', async () => {
        await tx(async (r) => {
          await r.tribunalTasks.insert(claimed('tt_late', 'tv_1', { claim_expires_at: T2 }));
          await r.tribunalTasks.insert(claimed('tt_b', 'tv_2', { claim_expires_at: T1 }));
          await r.tribunalTasks.insert(claimed('tt_a', 'tv_3', { claim_expires_at: T1 }));
          await r.tribunalTasks.insert(claimed('tt_early', 'tv_4', { claim_expires_at: T0 }));
          await r.tribunalTasks.insert(claimed('tt_never', 'tv_5', { claim_expires_at: T3 }));
          // Not claimed: never an expired claim, whatever its stale expiry says.
          await r.tribunalTasks.insert(claimed('tt_q', 'tv_6', { status: 'queued' }));
          await r.tribunalTasks.insert(claimed('tt_d', 'tv_6', { status: 'completed' }));
        });
        const ids = (rows: TribunalTaskRecord[]) => rows.map((t) => t.task_id);
        expect(ids(await tx((r) => r.tribunalTasks.expiredClaims(T2, 10)))).toEqual([
          'tt_early',
          'tt_a',
          'tt_b',
          'tt_late',
        ]);
        expect(ids(await tx((r) => r.tribunalTasks.expiredClaims(T2, 2)))).toEqual([
          'tt_early',
          'tt_a',
        ]);
        expect(ids(await tx((r) => r.tribunalTasks.expiredClaims(T0, 10)))).toEqual(['tt_early']);
        expect(
          await tx((r) => r.tribunalTasks.expiredClaims('2024-12-31T23:59:59.999Z', 10)),
        ).toEqual([]);
        expect((await tx((r) => r.tribunalTasks.expiredClaims(T0, 10)))[0]).toEqual(
          claimed('tt_early', 'tv_4', { claim_expires_at: T0 }),
        );
      });
    });
  });
}
