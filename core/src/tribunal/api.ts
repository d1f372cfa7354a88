import type { Actor } from '../actor.js';
import type {
  RunnerClaimBody,
  RunnerCompleteBody,
  RunnerFailBody,
  RunnerStatusBody,
  RunnerTask,
  RunnerTaskState,
  TribunalGradeBody,
  TribunalQueued,
  TribunalRegradeBody,
  TribunalVerdict,
} from '../schemas/tribunal.js';

/**
 * Tribunal grading (docs/design.md#tribunal). An org submits a sheet and a submission; a task goes into
 * the queue in the same transaction; a runner (in-process or external) claims it, grades it with the
 * core audit and completes it; the org polls the verdict. Errors: invalid_input 400, forbidden 403
 * (regrade by a non-owner), not_found 404 (also another org's ids), conflict 409 (a stale claim, or a
 * regrade of a verdict still queued or grading).
 */
export interface TribunalUseCases {
  /** Pins the sheet (id, slug = newest version, or an inline sheet) and enqueues a grading task. */
  grade(actor: Actor, input: TribunalGradeBody): Promise<TribunalQueued>;
  get(actor: Actor, verdictId: string): Promise<TribunalVerdict>;
  /**
   * Owner only. Moves the complete or failed result into the history, with the reason, the owner
   * and the time of the regrade, and enqueues a new task.
   */
  regrade(actor: Actor, input: TribunalRegradeBody): Promise<TribunalQueued>;
  /** Requeues expired claims (attempts capped, then failed), then claims the oldest queued task, or null. */
  claim(input: RunnerClaimBody): Promise<RunnerTask | null>;
  /** Extends the claim by the claim TTL. */
  reportStatus(taskId: string, input: RunnerStatusBody): Promise<RunnerTaskState>;
  /** Checks the runner's checks against the sheet's rules and computes the verdict itself. */
  complete(taskId: string, input: RunnerCompleteBody): Promise<RunnerTaskState>;
  fail(taskId: string, input: RunnerFailBody): Promise<RunnerTaskState>;
}
