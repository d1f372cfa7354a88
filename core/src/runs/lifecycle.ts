import { RunledgerError, conflict } from '../errors.js';
import type { Role, RunEvent, RunState } from '../schemas/enums.js';

type Table = Readonly<Record<RunState, Readonly<Partial<Record<RunEvent, RunState>>>>>;

const freeze = <T extends object>(o: T): Readonly<T> => Object.freeze(o);

/**
 * Every allowed transition; anything absent is a 409. Re-auditing before a decision is allowed
 * (it replaces checks and verdict from the current inputs); finalizing again after findings
 * leaves the state as it is (the stored verdict is returned).
 * Escalated runs may still be approved or rejected, by an owner (checked in assertCanApprove).
 */
export const RUN_TRANSITIONS: Table = freeze({
  draft: freeze({ change_inputs: 'draft', audit_open: 'audited', audit_complete: 'finalized' }),
  audited: freeze({
    change_inputs: 'draft',
    audit_open: 'audited',
    audit_complete: 'finalized',
    grade: 'audited',
    finalize: 'finalized',
  }),
  finalized: freeze({
    change_inputs: 'draft',
    audit_open: 'audited',
    audit_complete: 'finalized',
    finalize: 'finalized',
    approve: 'approved',
    reject: 'rejected',
    escalate: 'escalated',
  }),
  approved: freeze({ finalize: 'approved', mint: 'receipted' }),
  rejected: freeze({ finalize: 'rejected' }),
  escalated: freeze({ finalize: 'escalated', approve: 'approved', reject: 'rejected' }),
  receipted: freeze({ finalize: 'receipted' }),
});

const DECIDED: ReadonlySet<RunState> = new Set(['approved', 'rejected', 'escalated', 'receipted']);

/** The next state, or a 409 naming the state and the event. */
export function nextRunState(state: RunState, event: RunEvent): RunState {
  const next = RUN_TRANSITIONS[state][event];
  if (next === undefined) throw conflict(`a ${state} run does not allow ${event}`);
  return next;
}

function decidedMessage(state: RunState): string {
  return state === 'receipted'
    ? 'the run is approved and receipted'
    : `the run is already ${state}`;
}

/** Evidence and submission may change until a decision. */
export function assertCanChangeInputs(state: RunState): void {
  if (DECIDED.has(state)) {
    throw conflict(
      `evidence and submission cannot change after a decision: ${decidedMessage(state)}`,
    );
  }
}

/** The state after evidence or the submission changed: back to draft, checks and verdict cleared. */
export function afterInputChange(state: RunState): RunState {
  assertCanChangeInputs(state);
  return nextRunState(state, 'change_inputs');
}

/** Audit needs a submission and no decision yet. */
export function assertCanAudit(state: RunState, hasSubmission: boolean): void {
  if (DECIDED.has(state))
    throw conflict(`the run cannot be audited again: ${decidedMessage(state)}`);
  if (!hasSubmission) throw conflict('the run has no submission to audit');
}

/** The state an audit leads to: finalized at once when it left no check open, else audited. */
export function afterAudit(state: RunState, openCount: number): RunState {
  return nextRunState(state, openCount > 0 ? 'audit_open' : 'audit_complete');
}

/** Checks are graded only between audit and findings. */
export function assertCanGrade(state: RunState): void {
  if (state === 'draft') throw conflict('the run has not been audited');
  if (state !== 'audited') throw conflict(`checks cannot be graded: the run is ${state}`);
}

/**
 * `finalize` when the findings step should compute the verdict, `already_finalized` when it was
 * computed before (the caller returns the stored verdict: repeat calls answer the same).
 */
export function assertCanFinalize(
  state: RunState,
  openCount: number,
): 'finalize' | 'already_finalized' {
  if (state === 'draft') throw conflict('the run has not been audited');
  if (state === 'audited' && openCount > 0) {
    throw conflict(
      `${openCount} check${openCount === 1 ? ' is' : 's are'} still open; grade them first`,
    );
  }
  nextRunState(state, 'finalize');
  return state === 'audited' ? 'finalize' : 'already_finalized';
}

export type RunDecision = 'approved' | 'rejected' | 'escalated';

const DECISION_EVENT: Readonly<Record<RunDecision, RunEvent>> = freeze({
  approved: 'approve',
  rejected: 'reject',
  escalated: 'escalate',
});

/** Returns the state after the decision. */
export function assertCanApprove(
  state: RunState,
  decision: RunDecision,
  actorRole: Role,
): RunState {
  switch (state) {
    case 'draft':
      throw conflict('the run has not been audited');
    case 'audited':
      throw conflict('the run has open checks or unfinalized findings');
    case 'approved':
    case 'rejected':
    case 'receipted':
      throw conflict(`the run already has a decision: ${decidedMessage(state)}`);
    case 'escalated':
      if (decision === 'escalated') throw conflict('the run is already escalated');
      if (actorRole !== 'owner') {
        throw new RunledgerError('forbidden', 'only an owner can decide an escalated run');
      }
      break;
    case 'finalized':
      break;
  }
  return nextRunState(state, DECISION_EVENT[decision]);
}

/** `mint` for an approved run, `already_minted` for a receipted one (the caller returns that receipt). */
export function assertCanMint(state: RunState): 'mint' | 'already_minted' {
  if (state === 'receipted') return 'already_minted';
  if (state !== 'approved') {
    throw conflict(`receipts are minted only for approved runs; the run is ${state}`);
  }
  return 'mint';
}
