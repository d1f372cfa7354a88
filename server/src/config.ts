import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { RECEIPT_PREFIX } from '@runledger/core';
import { readOrCreateSecretFile } from '@runledger/adapters';
import { ConfigError } from './config-error.js';
import { loadSigningConfig, type SigningConfig } from './signing-config.js';
import { loadWebhookConfig, type WebhookConfig } from './webhooks/config.js';
import { loadWitnessConfig, type WitnessConfig } from './witness-config.js';

/** Everything the server reads from the environment (docs/configuration.md), parsed once at start. */
export interface ServerConfig extends SigningConfig, WitnessConfig {
  /** Outbound webhooks (docs/webhooks.md). */
  webhooks: WebhookConfig;
  port: number;
  host: string;
  dataDir: string;
  /** DATABASE_URL: set, storage is PostgreSQL at this URL; unset, SQLite in dataDir. */
  databaseUrl: string | null;
  production: boolean;
  publicBaseUrl: string;
  jwtSecret: string;
  jwtTtlHours: number;
  magicLinkTtlMinutes: number;
  inviteTtlHours: number;
  smtpUrl: string | null;
  mailFrom: string;
  receiptPrefix: string;
  logLevel: string;
  /** LOG_FORMAT: `json` (one object a line) or `pretty` (pino-pretty). */
  logFormat: LogFormat;
  /** The /metrics listener (docs/operations.md): on METRICS_HOST, loopback by default; null (METRICS_PORT unset or off) serves none. */
  metricsPort: number | null;
  metricsHost: string;
  /** After SIGTERM, how long /ready answers 503 `draining` while requests are still served, before the listeners close. */
  shutdownGraceSeconds: number;
  /**
   * Limits for POST /auth/request (at most `perEmail` and `perIp` requests per window) and for token
   * guesses, POST /auth/verify and /auth/accept-invite together (`verifyPerIp` per window).
   */
  authRequestLimit: { perEmail: number; perIp: number; verifyPerIp: number; windowSeconds: number };
  /** Largest accepted JSON body in bytes. */
  jsonBodyLimit: number;
  /** The router API listener (docs/router.md): loopback by default, its member and admin routes have no auth. */
  routerPort: number;
  routerHost: string;
  /** How often the lease sweeper runs. */
  routerSweepSeconds: number;
  leaseTtlSeconds: number;
  jobMaxAttempts: number;
  /** Unset: POST /workers/register answers 503. */
  workerRegistrationKey: string | null;
  /** RUNNER_TOKEN; unset: the /internal/runner routes answer 503. */
  runnerToken: string | null;
  /** TRIBUNAL_RUNNER: `in-process` (default) grades in the server; `external` leaves it to runners. */
  tribunalRunner: TribunalRunnerMode;
  tribunalClaimTtlSeconds: number;
  tribunalMaxAttempts: number;
  /** How often the in-process runner looks for tasks besides being woken on enqueue. */
  tribunalPollSeconds: number;
  /** X-Internal-Key of POST /internal/datasets/{id}/stage; unset: 503. */
  internalApiKey: string | null;
  /** HMAC key of POST /webhooks/payments signatures; unset: 503. */
  paymentWebhookSecret: string | null;
  /** STATE_DIR: what a database restore must not roll back (the checkpoints signed); default DATA_DIR/state. */
  stateDir: string;
  /** ACCEPT_HISTORY_ROLLBACK=1: start on a database behind a signed checkpoint, recording it. */
  acceptHistoryRollback: boolean;
}

export type TribunalRunnerMode = 'in-process' | 'external';
export type LogFormat = 'json' | 'pretty';

export { ConfigError };

type Env = Record<string, string | undefined>;

function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

/**
 * An internal credential: unset (or empty) turns its routes off. In production it must be at least
 * 32 characters, like JWT_SECRET: these are shared secrets, guessable ones would open the routes.
 */
function credentialFrom(env: Env, name: string, production: boolean): string | null {
  const value = env[name];
  if (!value) return null;
  if (production && value.length < 32) {
    throw new ConfigError(`${name} must be at least 32 characters in production`);
  }
  return value;
}

function runnerModeFrom(env: Env): TribunalRunnerMode {
  const raw = env.TRIBUNAL_RUNNER ?? '';
  if (raw === '' || raw === 'in-process') return 'in-process';
  if (raw === 'external') return 'external';
  throw new ConfigError(`TRIBUNAL_RUNNER must be in-process or external, got "${raw}"`);
}

/** Unset: pretty for a person at a terminal outside production; JSON for production and for pipes (log shippers, tests). */
function logFormatFrom(env: Env, production: boolean, terminal: boolean): LogFormat {
  const raw = env.LOG_FORMAT ?? '';
  if (raw === '') return !production && terminal ? 'pretty' : 'json';
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
}

/**
 * METRICS_PORT: a port (0 picks a free one); unset or `off`, no metrics listener. Off by default so
 * that servers started side by side (tests, `runledger serve`, several instances) never collide.
 */
function metricsPortFrom(env: Env): number | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '' || env.METRICS_PORT === 'off') {
    return null;
  }
  const port = intFrom(env, 'METRICS_PORT', 0);
  if (port > 65535) throw new ConfigError(`METRICS_PORT must be at most 65535, got ${port}`);
  return port;
}

/** The dev secret is created once so tokens survive a restart; 0600 keeps other local users out. */
function devJwtSecret(dataDir: string): string {
  return readOrCreateSecretFile(join(dataDir, 'jwt-secret'), () =>
    randomBytes(32).toString('base64url'),
  );
}

/** Checked here so a bad prefix stops the start instead of failing every mint later. */
function receiptPrefixFrom(env: Env): string {
  const receiptPrefix = env.RECEIPT_PREFIX ?? 'rcpt';
  if (!RECEIPT_PREFIX.test(receiptPrefix)) {
    throw new ConfigError(
      `RECEIPT_PREFIX must be a letter then up to 31 letters, digits or underscores, got "${receiptPrefix}"`,
    );
  }
  return receiptPrefix;
}

/** JWT_SECRET, at least 32 characters; in development, generated once into DATA_DIR when unset. */
function jwtSecretFrom(env: Env, production: boolean, dataDir: string): string {
  const jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret === '') {
    if (production) {
      throw new ConfigError(
        'APP_ENV=production requires JWT_SECRET (at least 32 characters); refusing to start',
      );
    }
    return devJwtSecret(dataDir);
  }
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  return jwtSecret;
}

/** Unset: the local address of this listener, so dev links work on any PORT (8080 by default, docs/configuration.md). */
function publicBaseUrlFrom(env: Env, port: number): string {
  const publicBaseUrl = (
    env.PUBLIC_BASE_URL ?? `http://localhost:${port === 0 ? 8080 : port}`
  ).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL is not a URL: "${publicBaseUrl}"`);
  }
  return publicBaseUrl;
}

/** `terminal`: whether stdout is a terminal, which chooses the log format when LOG_FORMAT is unset. */
export function loadConfig(
  env: Env = process.env,
  terminal = process.stdout.isTTY === true,
): ServerConfig {
  const receiptPrefix = receiptPrefixFrom(env);
  const production = (env.APP_ENV ?? 'development') === 'production';
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const port = intFrom(env, 'PORT', 8080);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  const routerPort = intFrom(env, 'ROUTER_PORT', 8081);
  if (routerPort > 65535) {
    throw new ConfigError(`ROUTER_PORT must be at most 65535, got ${routerPort}`);
  }

  const jwtSecret = jwtSecretFrom(env, production, dataDir);

  const runnerToken = credentialFrom(env, 'RUNNER_TOKEN', production);
  const tribunalRunner = runnerModeFrom(env);
  // Gradings would queue forever: nothing in-process takes them and no runner could authenticate.
  if (tribunalRunner === 'external' && runnerToken === null) {
    throw new ConfigError(
      'TRIBUNAL_RUNNER=external needs RUNNER_TOKEN, or no runner can claim a grading',
    );
  }

  const publicBaseUrl = publicBaseUrlFrom(env, port);

  return {
    port,
    // Development listens on loopback only unless HOST says otherwise: a laptop's `npm start` is not
    // reachable from its network. Production listens on every interface, as a container expects.
    host: env.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl: env.DATABASE_URL ? env.DATABASE_URL : null,
    production,
    publicBaseUrl,
    jwtSecret,
    jwtTtlHours: intFrom(env, 'JWT_TTL_HOURS', 720, 1),
    magicLinkTtlMinutes: intFrom(env, 'MAGIC_LINK_TTL_MINUTES', 10, 1),
    inviteTtlHours: intFrom(env, 'INVITE_TTL_HOURS', 168, 1),
    smtpUrl: env.SMTP_URL ? env.SMTP_URL : null,
    mailFrom: env.MAIL_FROM ?? 'runledger <no-reply@localhost>',
    receiptPrefix,
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: logFormatFrom(env, production, terminal),
    metricsPort: metricsPortFrom(env),
    // Loopback unless told otherwise, in production too: metrics are not for the public.
    metricsHost: env.METRICS_HOST ?? '127.0.0.1',
    shutdownGraceSeconds: intFrom(env, 'SHUTDOWN_GRACE_SECONDS', 0),
    authRequestLimit: {
      perEmail: intFrom(env, 'AUTH_REQUEST_LIMIT_PER_EMAIL', 5, 1),
      perIp: intFrom(env, 'AUTH_REQUEST_LIMIT_PER_IP', 30, 1),
      verifyPerIp: intFrom(env, 'AUTH_VERIFY_LIMIT_PER_IP', 30, 1),
      windowSeconds: intFrom(env, 'AUTH_REQUEST_WINDOW_SECONDS', 600, 1),
    },
    jsonBodyLimit: intFrom(env, 'JSON_BODY_LIMIT_BYTES', 1_048_576, 1024),
    routerPort,
    routerHost: env.ROUTER_HOST ?? '127.0.0.1',
    routerSweepSeconds: intFrom(env, 'ROUTER_SWEEP_SECONDS', 5, 1),
    leaseTtlSeconds: intFrom(env, 'LEASE_TTL_SECONDS', 600, 1),
    jobMaxAttempts: intFrom(env, 'JOB_MAX_ATTEMPTS', 3, 1),
    workerRegistrationKey: credentialFrom(env, 'WORKER_REGISTRATION_KEY', production),
    runnerToken,
    tribunalRunner,
    tribunalClaimTtlSeconds: intFrom(env, 'TRIBUNAL_CLAIM_TTL_SECONDS', 300, 1),
    tribunalMaxAttempts: intFrom(env, 'TRIBUNAL_MAX_ATTEMPTS', 3, 1),
    tribunalPollSeconds: intFrom(env, 'TRIBUNAL_POLL_SECONDS', 30, 1),
    internalApiKey: credentialFrom(env, 'INTERNAL_API_KEY', production),
    paymentWebhookSecret: credentialFrom(env, 'PAYMENT_WEBHOOK_SECRET', production),
    stateDir: resolve(env.STATE_DIR || join(dataDir, 'state')),
    acceptHistoryRollback: env.ACCEPT_HISTORY_ROLLBACK === '1',
    webhooks: loadWebhookConfig(env),
    ...loadSigningConfig(env, { production, dataDir, publicBaseUrl }),
    ...loadWitnessConfig(env),
  };
}
