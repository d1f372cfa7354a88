export {
  CLAIM_FENCES,
  TERMINAL_TASK_STATUSES,
  claimValidAt,
  newTaskClaimState,
  transitionTask,
  type ClaimFence,
  type TaskClaimState,
  type TaskEvent,
  type TaskEventType,
} from './claims.js';
export { acceptRunnerChecks } from './checks.js';
export {
  gradeSubmission,
  gradeTaskResult,
  type GradableSheet,
  type TaskGradeResult,
} from './grading.js';
export { CLAIM_TOKEN_PREFIX } from './runner.js';
export { tribunalUseCases, type TribunalUseCases } from './use-cases.js';
export { tribunalVerdict } from './verdict.js';
