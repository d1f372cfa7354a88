import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { RunEvent, RunState } from '../schemas/enums.js';
import {
  RUN_TRANSITIONS,
  afterAudit,
  afterInputChange,
  assertCanApprove,
  assertCanAudit,
  assertCanChangeInputs,
  assertCanFinalize,
  assertCanGrade,
  assertCanMint,
  nextRunState,
  type RunDecision,
} from './lifecycle.js';

/** The lifecycle of docs/design.md#run-lifecycle, written out independently of the table under test. */
const ALLOWED = new Map<string, RunState>([
  ['draft change_inputs', 'draft'],
  ['draft audit_open', 'audited'],
  ['draft audit_complete', 'finalized'],
  ['audited change_inputs', 'draft'],
  ['audited audit_open', 'audited'],
  ['audited audit_complete', 'finalized'],
  ['audited grade', 'audited'],
  ['audited finalize', 'finalized'],
  ['finalized change_inputs', 'draft'],
  ['finalized audit_open', 'audited'],
  ['finalized audit_complete', 'finalized'],
  ['finalized finalize', 'finalized'],
  ['finalized approve', 'approved'],
  ['finalized reject', 'rejected'],
  ['finalized escalate', 'escalated'],
  ['approved finalize', 'approved'],
  ['approved mint', 'receipted'],
  ['rejected finalize', 'rejected'],
  ['escalated finalize', 'escalated'],
  ['escalated approve', 'approved'],
  ['escalated reject', 'rejected'],
  ['receipted finalize', 'receipted'],
]);

const states = RunState.options;
const pairs = states.flatMap((s) => RunEvent.options.map((e) => [s, e] as const));

function conflictOf(fn: () => unknown): RunledgerError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RunledgerError);
    return e as RunledgerError;
  }
  throw new Error('expected a RunledgerError');
}
const expectConflict = (fn: () => unknown, message?: RegExp) => {
  const e = conflictOf(fn);
  expect(e.code).toBe('conflict');
  if (message) expect(e.message).toMatch(message);
};

describe('run transition table', () => {
  it.each(pairs)('%s on %s follows the lifecycle or is a 409', (state, event) => {
    const expected = ALLOWED.get(`${state} ${event}`);
    if (expected === undefined) expectConflict(() => nextRunState(state, event), new RegExp(state));
    else expect(nextRunState(state, event)).toBe(expected);
  });

  it('is frozen all the way down', () => {
    expect(Object.isFrozen(RUN_TRANSITIONS)).toBe(true);
    for (const s of states) expect(Object.isFrozen(RUN_TRANSITIONS[s])).toBe(true);
  });
});

const BEFORE_DECISION: RunState[] = ['draft', 'audited', 'finalized'];
const DECIDED: RunState[] = ['approved', 'rejected', 'escalated', 'receipted'];

describe('changing evidence or submission', () => {
  it.each(BEFORE_DECISION)('is allowed on a %s run and returns it to draft', (state) => {
    expect(() => assertCanChangeInputs(state)).not.toThrow();
    expect(afterInputChange(state)).toBe('draft');
  });

  it.each(DECIDED)('is a 409 on a %s run', (state) => {
    expectConflict(() => assertCanChangeInputs(state), /after a decision/);
    expectConflict(() => afterInputChange(state), /after a decision/);
  });
});

describe('audit', () => {
  it.each(BEFORE_DECISION)('runs on a %s run with a submission', (state) => {
    expect(() => assertCanAudit(state, true)).not.toThrow();
    expect(afterAudit(state, 2)).toBe('audited');
    expect(afterAudit(state, 0)).toBe('finalized');
  });

  it.each(BEFORE_DECISION)('is a 409 on a %s run without a submission', (state) => {
    expectConflict(() => assertCanAudit(state, false), /no submission/);
  });

  it.each(DECIDED)('is a 409 on a %s run', (state) => {
    expectConflict(() => assertCanAudit(state, true));
    expectConflict(() => afterAudit(state, 0));
  });
});

describe('grading', () => {
  it('is allowed only on an audited run', () => {
    for (const state of states) {
      if (state === 'audited') expect(() => assertCanGrade(state)).not.toThrow();
      else expectConflict(() => assertCanGrade(state));
    }
  });
});

describe('findings', () => {
  it('finalize an audited run with no open checks', () => {
    expect(assertCanFinalize('audited', 0)).toBe('finalize');
  });

  it('are a 409 while checks are open, naming how many', () => {
    expectConflict(() => assertCanFinalize('audited', 1), /1 check is still open/);
    expectConflict(() => assertCanFinalize('audited', 3), /3 checks are still open/);
  });

  it('are a 409 before audit', () => {
    expectConflict(() => assertCanFinalize('draft', 0), /not been audited/);
  });

  it.each(['finalized', ...DECIDED] as RunState[])(
    'on a %s run answer with the verdict already computed',
    (state) => {
      expect(assertCanFinalize(state, 0)).toBe('already_finalized');
    },
  );
});

describe('decisions', () => {
  const decisions: RunDecision[] = ['approved', 'rejected', 'escalated'];

  it.each(decisions)('a member or owner may record %s on a finalized run', (decision) => {
    expect(assertCanApprove('finalized', decision, 'member')).toBe(decision);
    expect(assertCanApprove('finalized', decision, 'owner')).toBe(decision);
  });

  it.each(decisions)('%s before audit is a 409', (decision) => {
    expectConflict(() => assertCanApprove('draft', decision, 'owner'), /not been audited/);
  });

  it.each(decisions)('%s while checks are open is a 409', (decision) => {
    expectConflict(() => assertCanApprove('audited', decision, 'owner'), /open checks/);
  });

  it.each(
    (['approved', 'rejected', 'receipted'] as RunState[]).flatMap((s) =>
      decisions.map((d) => [s, d] as const),
    ),
  )('a second decision on a %s run (%s) is a 409', (state, decision) => {
    expectConflict(() => assertCanApprove(state, decision, 'owner'), /already/);
  });

  it.each(['approved', 'rejected'] as RunDecision[])(
    'an owner may settle an escalated run as %s',
    (d) => {
      expect(assertCanApprove('escalated', d, 'owner')).toBe(d);
    },
  );

  it('a member may not settle an escalated run (403)', () => {
    for (const d of ['approved', 'rejected'] as RunDecision[]) {
      const e = conflictOf(() => assertCanApprove('escalated', d, 'member'));
      expect(e.code).toBe('forbidden');
    }
  });

  it('escalating an escalated run again is a 409', () => {
    expectConflict(() => assertCanApprove('escalated', 'escalated', 'owner'), /already escalated/);
  });
});

describe('minting', () => {
  it('mints for an approved run and reports an existing receipt for a receipted one', () => {
    expect(assertCanMint('approved')).toBe('mint');
    expect(assertCanMint('receipted')).toBe('already_minted');
  });

  it.each(['draft', 'audited', 'finalized', 'rejected', 'escalated'] as RunState[])(
    'is a 409 on a %s run',
    (state) => {
      expectConflict(() => assertCanMint(state), /only for approved runs/);
    },
  );
});
