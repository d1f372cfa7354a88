import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  consoleMailer,
  cryptoRandom,
  openJsonlReceiptSink,
  openFileBlobStore,
  openPostgresStorage,
  openSqliteStorage,
  smtpMailer,
  systemClock,
} from '@runledger/adapters';
import { backfillLedgerTrees, createRunledger, recordSigningKeyRotation } from '@runledger/core';
import type { Clock, Mailer } from '@runledger/core/ports';
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
import { createMetrics } from './ops/metrics/registry.js';
import { registerStorageGauges } from './ops/metrics/storage-gauges.js';
import { diskSpaceProbe, receiptSinkProbe, signingKeyProbe, storageProbe } from './ops/probes.js';
import { Readiness } from './ops/readiness.js';
import { startupGate } from './ops/startup-gate.js';
import { ROUTER_API, routerRoutes } from './router-api/index.js';

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
  const logger =
    options.logger ??
    createLogger(config.logLevel, config.logFormat === 'pretty' ? prettyDestination() : undefined);
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
    const onBatchCommit = (transactions: number, seconds: number) => {
      metrics.batchSize.observe(transactions);
      metrics.commitSeconds.observe(seconds);
    };
    const rawStorage =
      config.databaseUrl === null
        ? await openSqliteStorage({
            file: join(config.dataDir, 'runledger.sqlite'),
            onBatchCommit,
          })
        : await openPostgresStorage({
            connectionString: config.databaseUrl,
            clock: options.expiryClock ?? 'database',
          });
    opened.push(() => rawStorage.close());
    const storage = instrumentedStorage(rawStorage, metrics);
    registerStorageGauges(metrics.registry, storage);
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
    const blobs = await openFileBlobStore(join(config.dataDir, 'blobs'));
    const rawSink = await openJsonlReceiptSink(join(config.dataDir, 'receipts'), {
      instance: config.instanceId,
      signer: config.checkpointSigner,
      host: new URL(config.publicBaseUrl).host,
      now: () => clock.now(),
    });
    opened.push(() => rawSink.close());
    const receiptSink = instrumentedReceiptSink(rawSink, metrics);
    const readiness = new Readiness(
      [
        storageProbe(storage),
        receiptSinkProbe(rawSink.dir),
        diskSpaceProbe(config.dataDir),
        signingKeyProbe(config.checkpointSigner),
      ],
      (probe, error) => logger.warn({ err: error, probe }, 'readiness check failed'),
    );
    const mailer =
      options.mailer ??
      (config.smtpUrl
        ? smtpMailer(config.smtpUrl, config.mailFrom)
        : consoleMailer((line: string) => logger.info(line)));
    const runledger = createRunledger(
      {
        storage,
        clock,
        random: cryptoRandom(),
        mailer,
        receiptSink,
        blobs,
        checkpointSigner: config.checkpointSigner,
      },
      {
        publicBaseUrl: config.publicBaseUrl,
        production: config.production,
        magicLinkTtlMinutes: config.magicLinkTtlMinutes,
        inviteTtlHours: config.inviteTtlHours,
        receiptPrefix: config.receiptPrefix,
        leaseTtlSeconds: config.leaseTtlSeconds,
        jobMaxAttempts: config.jobMaxAttempts,
        tribunalClaimTtlSeconds: config.tribunalClaimTtlSeconds,
        tribunalMaxAttempts: config.tribunalMaxAttempts,
      },
    );
    // Receipts a crash left between commit and append are written before anyone can ask for them.
    const recovered = await runledger.router.flushOutbox();
    if (recovered > 0) logger.info({ recovered }, 'router receipt outbox flushed');

    const witnessing = witnessingOf(config, storage, clock, logger, metrics.registry);
    if (witnessing) opened.push(() => witnessing.stop());

    const signer = jwtSigner(config.jwtSecret, config.jwtTtlHours, clock);
    const windowMs = config.authRequestLimit.windowSeconds * 1000;
    // Counted in storage, so instances sharing one PostgreSQL database share the limits.
    const limiter = (name: string, limit: number) =>
      new StoredWindowLimiter(storage, clock, { name, limit, windowMs });
    const limits = {
      perEmail: limiter('auth_request_email', config.authRequestLimit.perEmail),
      perIp: limiter('auth_request_ip', config.authRequestLimit.perIp),
      verifyPerIp: limiter('auth_verify_ip', config.authRequestLimit.verifyPerIp),
    };
    const deps = { runledger, signer };
    const tribunalRunner =
      config.tribunalRunner === 'in-process'
        ? startInProcessRunner(runledger.tribunal, config.tribunalPollSeconds, logger)
        : null;
    // Stopped after the listeners close (cleanup runs in reverse), so no request wakes it meanwhile.
    if (tribunalRunner) opened.push(() => tribunalRunner.stop());
    const tribunal = {
      runnerToken: config.runnerToken,
      onEnqueue: () => tribunalRunner?.wake(),
    };
    const mainApp = createApp({
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
      }),
      deps,
      logger,
      metrics: { metrics, api: 'main' },
      jsonBodyLimit: config.jsonBodyLimit,
      api: MAIN_API,
    });
    // Served from here on (a client polling /health then calling in gets answers); /ready says
    // `starting` until the rest is open.
    gate.open(mainApp);

    const routerApp = createApp({
      routes: routerRoutes({ runledger, registrationKey: config.workerRegistrationKey }),
      deps,
      logger,
      metrics: { metrics, api: 'router' },
      jsonBodyLimit: config.jsonBodyLimit,
      api: ROUTER_API,
    });
    const router: Listener = await listen(routerApp, config.routerPort, config.routerHost);
    opened.push(() => router.close());

    // Each tick also appends receipts whose append failed after their change committed (a full disk,
    // say), so they reach the file without waiting for a restart.
    const sweeper = startSweeper(
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
    opened.push(() => sweeper.stop());

    const metricsListener =
      config.metricsPort === null
        ? null
        : await listen(
            metricsEndpoint(metrics.registry, (error) =>
              logger.error({ err: error }, 'metrics collection failed'),
            ),
            config.metricsPort,
            config.metricsHost,
          );
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
