export { loadConfig, ConfigError, type ServerConfig } from './config.js';
export { CREDENTIAL_HEADERS, REDACT_PATHS, createLogger } from './logger.js';
export { startServer, type RunningServer, type StartOptions } from './start.js';
export { JWT_AUDIENCE, JWT_ISSUER } from './http/jwt.js';
export {
  runExternalRunner,
  RunnerHttpError,
  type ExternalRunnerOptions,
  type ExternalRunnerReport,
} from './background/external-runner.js';
