export {
  RunState,
  RunEvent,
  RUN_TRANSITIONS,
  nextRunState,
  assertCanChangeInputs,
  afterInputChange,
  assertCanAudit,
  afterAudit,
  assertCanGrade,
  assertCanFinalize,
  assertCanApprove,
  assertCanMint,
  type RunDecision,
} from './lifecycle.js';
export { runUseCases } from './use-cases.js';
export { toApproval, toCheck, toEvidence, toReceipt, toRun, toSubmission } from './views.js';
