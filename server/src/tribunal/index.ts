export { tribunalRoutes, type TribunalRouteDeps } from './routes.js';
export { runnerRoutes, type RunnerRouteDeps } from './runner-routes.js';
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
export { TRIBUNAL_NAMED } from './components.js';
