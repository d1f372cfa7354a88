import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  consoleMailer,
  type BatchLimits,
  cryptoRandom,
  openJsonlReceiptSink,
  type JsonlReceiptSink,
  openFileBlobStore,
  type FileBlobStore,
  openPostgresStorage,
  openSqliteStorage,
  smtpMailer,
  systemClock,
} from '@runledger/adapters';
import {
  backfillLedgerTrees,
  recordSigningKeyRotation,
  type WebhookUseCases,
} from '@runledger/core/adapter';
import {
  createRunledger,
  type Runledger,
  type RunledgerConfig,
  type RunledgerPorts,
} from '@runledger/core';
import type { CheckpointSigner, Clock, Mailer, Storage } from '@runledger/core/ports';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { jwtSigner } from './http/jwt.js';
import { listen, type Listener } from './http/listen.js';
import { StoredWindowLimiter } from './http/rate-limit.js';
import { createLogger, prettyDestination } from './logger.js';
import { startInProcessRunner, startSweeper } from './background/index.js';
import { witnessingOf } from './background/witnessing.js';
import { allRoutes, MAIN_API } from './main-api/index.js';
import { metricsEndpoint } from './ops/metrics/endpoint.js';
import {
  instrumentedReceiptSink,
  instrumentedStorage,
} from './ops/metrics/instrumented-storage.js';
import { createMetrics, type Metrics } from './ops/metrics/registry.js';
import { registerStorageGauges } from './ops/metrics/storage-gauges.js';
import { diskSpaceProbe, receiptSinkProbe, signingKeyProbe, storageProbe } from './ops/probes.js';
import { Readiness } from './ops/readiness.js';
import { startupGate } from './ops/startup-gate.js';
import { guardSignedHistory } from './ops/history/history-guard.js';
import { recordingSigner, SignedHistory } from './ops/history/signed-history.js';
import { ROUTER_API, routerRoutes } from './router-api/index.js';
import { PAGE_SEGMENTS, sessions, webApp } from './web-app/index.js';
import { startWebhooks } from './webhooks/start-webhooks.js';

/**
 * How much work storage lets share one transaction (adapters/src/batching): a batch of one org's
 * mints, of sign-in lookups, of outbox deletes; on SQLite, write transactions per group commit
 * (one fsync). Larger batches amortize more per transaction and hold a lock or the writer longer.
 */
const STORAGE_BATCHING: BatchLimits = { writeAsks: 128, readAsks: 128, groupCommit: 256 };

export interface StartOptions {
  /** Tests pass a clock they can move (link expiry, JWT expiry, rate-limit windows, lease expiry). */
  clock?: Clock;
  mailer?: Mailer;
  logger?: Logger;
  /**
   * On PostgreSQL, whose clock fenced lease and claim expiry compare against: the database's
   * (default, so instances with skewed clocks agree) or `clock` (tests that move a manual clock).
   */
  expiryClock?: 'database' | 'caller';
}

export interface RunningServer {
  /** The main API. */
  url: string;
  /** The router API v0.1 (its own listener and its own /openapi.json). */
  routerUrl: string;
  /** The /metrics listener, or null with METRICS_PORT=off. */
  metricsUrl: string | null;
  /** From now on GET /ready answers 503 `not ready: draining`; requests are still served (SIGTERM's grace). */
  drain(): void;
  /** Runs one lease sweep now, as the ROUTER_SWEEP_SECONDS interval does; resolves with how many expired. */
  sweepLeases(): Promise<number>;
  /** Drains, stops accepting on every listener, lets in-flight requests and a running sweep finish, then closes the receipt sink and storage. */
  close(): Promise<void>;
}

/**
 * The composition root: adapters → core → HTTP. The main API listens on config.host:config.port and the
 * router API on config.routerHost:config.routerPort (0 picks a free port); both share one storage and one SDK.
 * The main listener binds first and answers 503 `starting` (GET /health 200) until everything is open.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? loggerOf(config);
  const clock = options.clock ?? systemClock();
  mkdirSync(config.dataDir, { recursive: true });
  const gate = startupGate();
  const main: Listener = await listen(gate.handler, config.port, config.host);
  const opened: Array<() => Promise<void>> = [];
  // Undo in reverse order of opening, after the main listener (bound first, closed first); used both
  // when start-up fails half way and on close.
  const closeOpened = async () => {
    await main.close();
    for (const close of opened.reverse()) await close();
    opened.length = 0;
  };
  try {
    const metrics = createMetrics();
    const storage = await openStorage(config, options, metrics, opened);
    const checkpointSigner = await historyGuardedSigner(config, storage, logger, clock);
    await catchUpStorage(config, storage, logger, clock);
    const blobs = await openFileBlobStore(join(config.dataDir, 'blobs'));
    const rawSink = await openReceiptSink(config, clock, opened);
    const receiptSink = instrumentedReceiptSink(rawSink, metrics);
    const readiness = readinessOf(config, storage, rawSink.dir, logger);
    const runledger = createRunledger(
      portsOf(config, options, logger, { storage, clock, receiptSink, blobs, checkpointSigner }),
      runledgerConfig(config),
    );
    await flushOutboxAtStart(runledger, logger);

    const witnessing = witnessingOf(config, storage, clock, logger, metrics.registry);
    if (witnessing) opened.push(() => witnessing.stop());

    const signer = jwtSigner(config.jwtSecret, config.jwtTtlHours, clock);
    const limits = authLimits(config, storage, clock);
    const deps = { runledger, signer };
    const webhooks = startWebhooksOf(config, { storage, clock, metrics, logger });
    opened.push(() => webhooks.stop());
    const tribunal = startTribunal(config, runledger, logger, opened);
    const mainApp = mainAppOf(config, {
      runledger,
      signer,
      limits,
      blobs,
      tribunal,
      clock,
      readiness,
      metrics,
      webhooks: webhooks.useCases,
      logger,
    });
    // Served from here on (a client polling /health then calling in gets answers); /ready says
    // `starting` until the rest is open.
    gate.open(mainApp);
    main.adopt(mainApp);

    const router = await openRouterListener(config, runledger, {
      deps,
      logger,
      metrics: { metrics, api: 'router' },
      jsonBodyLimit: config.jsonBodyLimit,
    });
    opened.push(() => router.close());

    const sweeper = startRouterSweeper(config, runledger, metrics, logger);
    opened.push(() => sweeper.stop());

    const metricsListener = await openMetricsListener(config, metrics, logger);
    if (metricsListener) opened.push(() => metricsListener.close());

    readiness.markReady();
    let closing: Promise<void> | undefined;
    return {
      url: main.url,
      routerUrl: router.url,
      metricsUrl: metricsListener?.url ?? null,
      sweepLeases: () => sweeper.runNow(),
      drain: () => readiness.markDraining(),
      close: () => {
        readiness.markDraining();
        return (closing ??= closeOpened());
      },
    };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}

/** SQLite under DATA_DIR or PostgreSQL at DATABASE_URL, batched as STORAGE_BATCHING says, instrumented. */
async function openStorage(
  config: ServerConfig,
  options: StartOptions,
  metrics: Metrics,
  opened: Array<() => Promise<void>>,
): Promise<Storage> {
  const onBatchCommit = (transactions: number, seconds: number, syncSeconds: number) => {
    metrics.batchSize.observe(transactions);
    metrics.commitSeconds.observe(seconds);
    metrics.logSyncSeconds.observe(syncSeconds);
  };
  const rawStorage =
    config.databaseUrl === null
      ? await openSqliteStorage({
          file: join(config.dataDir, 'runledger.sqlite'),
          onBatchCommit,
          batching: STORAGE_BATCHING,
        })
      : await openPostgresStorage({
          connectionString: config.databaseUrl,
          clock: options.expiryClock ?? 'database',
          batching: STORAGE_BATCHING,
        });
  opened.push(() => rawStorage.close());
  const storage = instrumentedStorage(rawStorage, metrics, STORAGE_BATCHING);
  registerStorageGauges(metrics.registry, storage);
  return storage;
}

/**
 * Before anything is written: a database behind a checkpoint already signed is refused (unless the
 * operator accepts the rollback); the signer returned records every checkpoint it signs.
 */
async function historyGuardedSigner(
  config: ServerConfig,
  storage: Storage,
  logger: Logger,
  clock: Clock,
): Promise<CheckpointSigner> {
  const history = SignedHistory.open(config.stateDir);
  const accepted = await guardSignedHistory(storage, history, {
    accept: config.acceptHistoryRollback,
    now: clock.now(),
  });
  if (accepted.length > 0) logger.warn({ logs: accepted }, 'history rollback accepted');
  return recordingSigner(config.checkpointSigner, history);
}

/**
 * Receipts minted before the Merkle tree existed join their org's tree, and a signing key other
 * than the last one is recorded.
 */
async function catchUpStorage(
  config: ServerConfig,
  storage: Storage,
  logger: Logger,
  clock: Clock,
): Promise<void> {
  // Receipts minted before the Merkle tree existed (migration 6) join their org's tree first.
  const backfilled = await backfillLedgerTrees(storage);
  if (backfilled > 0) logger.info({ backfilled }, 'ledger trees built for earlier receipts');
  // A key other than the one the deployment last started with goes into every audit chain.
  const rotation = await recordSigningKeyRotation(
    storage,
    config.checkpointSigner.keyId,
    clock.now(),
  );
  if (rotation.receipts > 0) logger.info(rotation, 'signing key rotation recorded');
}

interface MainAppParts {
  runledger: Runledger;
  signer: ReturnType<typeof jwtSigner>;
  limits: ReturnType<typeof authLimits>;
  blobs: FileBlobStore;
  tribunal: ReturnType<typeof startTribunal>;
  clock: Clock;
  readiness: Readiness;
  metrics: Metrics;
  logger: Logger;
  webhooks: WebhookUseCases;
}

/** The main listener's application: the API's routes and the web app's pages. */
function mainAppOf(config: ServerConfig, parts: MainAppParts) {
  const { runledger, signer, limits, blobs, tribunal, clock, readiness, metrics, logger } = parts;
  const { webhooks } = parts;
  return createApp({
    routes: allRoutes({
      runledger,
      signer,
      limits,
      blobs,
      tribunal,
      clock,
      readiness,
      internalApiKey: config.internalApiKey,
      paymentWebhookSecret: config.paymentWebhookSecret,
      publicBaseUrl: config.publicBaseUrl,
      webhooks,
    }),
    deps: { runledger, signer },
    logger,
    metrics: { metrics, api: 'main' },
    pages: {
      router: webAppOf(config, { runledger, signer, blobs, limits, webhooks }),
      segments: PAGE_SEGMENTS,
    },
    jsonBodyLimit: config.jsonBodyLimit,
    api: MAIN_API,
  });
}

/** Outbound webhooks: the endpoints' use cases and the delivery worker (docs/webhooks.md). */
function startWebhooksOf(
  config: ServerConfig,
  parts: { storage: Storage; clock: Clock; metrics: Metrics; logger: Logger },
) {
  return startWebhooks({
    config: config.webhooks,
    production: config.production,
    serverSecret: config.jwtSecret,
    random: cryptoRandom(),
    ...parts,
  });
}

/** The web app's pages under /app, signed in by a session cookie holding the API's own JWT. */
function webAppOf(
  config: ServerConfig,
  parts: {
    runledger: Runledger;
    signer: ReturnType<typeof jwtSigner>;
    blobs: FileBlobStore;
    limits: ReturnType<typeof authLimits>;
    webhooks: WebhookUseCases;
  },
) {
  const { runledger, signer, blobs, limits, webhooks } = parts;
  return webApp({
    runledger,
    sessions: sessions({
      runledger,
      signer,
      jwtSecret: config.jwtSecret,
      jwtTtlHours: config.jwtTtlHours,
      cookies: { secure: config.publicBaseUrl.startsWith('https:') },
    }),
    blobs,
    publicOrigin: new URL(config.publicBaseUrl).origin,
    limits,
    formLimit: config.jsonBodyLimit,
    webhooks,
  });
}

/** The router's day files under DATA_DIR/receipts, each append batch anchored by a signed note. */
async function openReceiptSink(
  config: ServerConfig,
  clock: Clock,
  opened: Array<() => Promise<void>>,
): Promise<JsonlReceiptSink> {
  const sink = await openJsonlReceiptSink(join(config.dataDir, 'receipts'), {
    instance: config.instanceId,
    signer: config.checkpointSigner,
    host: new URL(config.publicBaseUrl).host,
    now: () => clock.now(),
  });
  opened.push(() => sink.close());
  return sink;
}

function loggerOf(config: ServerConfig): Logger {
  const pretty = config.logFormat === 'pretty' ? prettyDestination() : undefined;
  return createLogger(config.logLevel, pretty);
}

/** The ports core runs on: the ones opened above, a CSPRNG, the mailer and the checkpoint signer. */
function portsOf(
  config: ServerConfig,
  options: StartOptions,
  logger: Logger,
  opened: Pick<RunledgerPorts, 'storage' | 'clock' | 'receiptSink' | 'blobs' | 'checkpointSigner'>,
): RunledgerPorts {
  return {
    ...opened,
    random: cryptoRandom(),
    mailer: options.mailer ?? mailerOf(config, logger),
  };
}

function mailerOf(config: ServerConfig, logger: Logger): Mailer {
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : consoleMailer((line: string) => logger.info(line));
}

function runledgerConfig(config: ServerConfig): RunledgerConfig {
  return {
    publicBaseUrl: config.publicBaseUrl,
    production: config.production,
    magicLinkTtlMinutes: config.magicLinkTtlMinutes,
    inviteTtlHours: config.inviteTtlHours,
    receiptPrefix: config.receiptPrefix,
    leaseTtlSeconds: config.leaseTtlSeconds,
    jobMaxAttempts: config.jobMaxAttempts,
    tribunalClaimTtlSeconds: config.tribunalClaimTtlSeconds,
    tribunalMaxAttempts: config.tribunalMaxAttempts,
  };
}

/** The sign-in limits, counted in storage, so instances sharing one database share them. */
function authLimits(config: ServerConfig, storage: Storage, clock: Clock) {
  const windowMs = config.authRequestLimit.windowSeconds * 1000;
  const limiter = (name: string, limit: number) =>
    new StoredWindowLimiter(storage, clock, { name, limit, windowMs });
  return {
    perEmail: limiter('auth_request_email', config.authRequestLimit.perEmail),
    perIp: limiter('auth_request_ip', config.authRequestLimit.perIp),
    verifyPerIp: limiter('auth_verify_ip', config.authRequestLimit.verifyPerIp),
  };
}

/**
 * Expires leases every ROUTER_SWEEP_SECONDS. Each tick also appends receipts whose append failed
 * after their change committed (a full disk, say), so they reach the file without waiting for a restart.
 */
function startRouterSweeper(
  config: ServerConfig,
  runledger: Runledger,
  metrics: Metrics,
  logger: Logger,
) {
  return startSweeper(
    async () => {
      const expired = await runledger.router.sweepExpiredLeases();
      metrics.leaseOutcomes.inc({ outcome: 'expired' }, expired);
      const flushed = await runledger.router.flushOutbox();
      if (flushed > 0) logger.info({ flushed }, 'router receipt outbox flushed');
      return expired;
    },
    config.routerSweepSeconds,
    logger,
  );
}

/** The /metrics listener, or null with METRICS_PORT=off. */
async function openMetricsListener(
  config: ServerConfig,
  metrics: Metrics,
  logger: Logger,
): Promise<Listener | null> {
  if (config.metricsPort === null) return null;
  return listen(
    metricsEndpoint(metrics.registry, (error) =>
      logger.error({ err: error }, 'metrics collection failed'),
    ),
    config.metricsPort,
    config.metricsHost,
  );
}

/** GET /ready's checks: storage, the receipt folder, free disk space, the signing key. */
function readinessOf(config: ServerConfig, storage: Storage, receiptDir: string, logger: Logger) {
  return new Readiness(
    [
      storageProbe(storage),
      receiptSinkProbe(receiptDir),
      diskSpaceProbe(config.dataDir),
      signingKeyProbe(config.checkpointSigner),
    ],
    (probe, error) => logger.warn({ err: error, probe }, 'readiness check failed'),
  );
}

/** The tribunal's runner token, and the in-process runner when TRIBUNAL_RUNNER=in-process. */
function startTribunal(
  config: ServerConfig,
  runledger: Runledger,
  logger: Logger,
  opened: Array<() => Promise<void>>,
) {
  const runner =
    config.tribunalRunner === 'in-process'
      ? startInProcessRunner(runledger.tribunal, config.tribunalPollSeconds, logger)
      : null;
  // Stopped after the listeners close (cleanup runs in reverse), so no request wakes it meanwhile.
  if (runner) opened.push(() => runner.stop());
  return { runnerToken: config.runnerToken, onEnqueue: () => runner?.wake() };
}

/** The router API v0.1 on its own listener, with its own /openapi.json. */
async function openRouterListener(
  config: ServerConfig,
  runledger: Runledger,
  common: Omit<Parameters<typeof createApp>[0], 'routes' | 'api'>,
): Promise<Listener> {
  const app = createApp({
    routes: routerRoutes({ runledger, registrationKey: config.workerRegistrationKey }),
    ...common,
    api: ROUTER_API,
  });
  const listener = await listen(app, config.routerPort, config.routerHost);
  listener.adopt(app);
  return listener;
}

/** Receipts a crash left between commit and append are written before anyone can ask for them. */
async function flushOutboxAtStart(runledger: Runledger, logger: Logger): Promise<void> {
  const recovered = await runledger.router.flushOutbox();
  if (recovered > 0) logger.info({ recovered }, 'router receipt outbox flushed');
}
