export {
  startInProcessRunner,
  gradeTask,
  IN_PROCESS_RUNNER_ID,
  type InProcessRunner,
} from './in-process-runner.js';
export {
  runExternalRunner,
  RunnerHttpError,
  type ExternalRunnerOptions,
  type ExternalRunnerReport,
} from './external-runner.js';
export { startSweeper, type Sweeper } from './sweeper.js';
