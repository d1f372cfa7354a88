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
import { backfillLedgerTrees, createRunledger } from '@runledger/core';
import type { Clock, Mailer } from '@runledger/core/ports';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { jwtSigner } from './http/jwt.js';
import { listen, type Listener } from './http/listen.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { createLogger } from './logger.js';
import { startInProcessRunner, startSweeper } from './background/index.js';
import { allRoutes } from './main-api/index.js';
import { ROUTER_API, routerRoutes } from './router-api/index.js';

export interface StartOptions {
  /** Tests pass a clock they can move (link expiry, JWT expiry, rate-limit windows, lease expiry). */
  clock?: Clock;
  mailer?: Mailer;
  logger?: Logger;
}

export interface RunningServer {
  /** The main API. */
  url: string;
  /** The router API v0.1 (its own listener and its own /openapi.json). */
  routerUrl: string;
  /** Runs one lease sweep now, as the ROUTER_SWEEP_SECONDS interval does; resolves with how many expired. */
  sweepLeases(): Promise<number>;
  /** Stops accepting on both listeners, lets in-flight requests and a running sweep finish, then closes the receipt sink and storage. */
  close(): Promise<void>;
}

/**
 * The composition root: adapters → core → HTTP. The main API listens on config.host:config.port and the
 * router API on config.routerHost:config.routerPort (0 picks a free port); both share one storage and one SDK.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock();
  mkdirSync(config.dataDir, { recursive: true });
  const storage =
    config.databaseUrl === null
      ? await openSqliteStorage({ file: join(config.dataDir, 'runledger.sqlite') })
      : await openPostgresStorage({ connectionString: config.databaseUrl });
  const opened: Array<() => Promise<void>> = [() => storage.close()];
  // Undo in reverse order of opening; used both when start-up fails half way and on close.
  const closeOpened = async () => {
    for (const close of opened.reverse()) await close();
    opened.length = 0;
  };
  try {
    // Receipts minted before the Merkle tree existed (migration 6) join their org's tree first.
    const backfilled = await backfillLedgerTrees(storage);
    if (backfilled > 0) logger.info({ backfilled }, 'ledger trees built for earlier receipts');
    const blobs = await openFileBlobStore(join(config.dataDir, 'blobs'));
    const receiptSink = await openJsonlReceiptSink(join(config.dataDir, 'receipts'), {
      instance: config.instanceId,
      signer: config.checkpointSigner,
      host: new URL(config.publicBaseUrl).host,
      now: () => clock.now(),
    });
    opened.push(() => receiptSink.close());
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

    const signer = jwtSigner(config.jwtSecret, config.jwtTtlHours, clock);
    const windowMs = config.authRequestLimit.windowSeconds * 1000;
    const limits = {
      perEmail: new FixedWindowLimiter(clock, config.authRequestLimit.perEmail, windowMs),
      perIp: new FixedWindowLimiter(clock, config.authRequestLimit.perIp, windowMs),
      verifyPerIp: new FixedWindowLimiter(clock, config.authRequestLimit.verifyPerIp, windowMs),
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
        internalApiKey: config.internalApiKey,
        paymentWebhookSecret: config.paymentWebhookSecret,
      }),
      deps,
      logger,
      publicBaseUrl: config.publicBaseUrl,
      jsonBodyLimit: config.jsonBodyLimit,
    });
    const main: Listener = await listen(mainApp, config.port, config.host);
    opened.push(() => main.close());

    const routerApp = createApp({
      routes: routerRoutes({ runledger, registrationKey: config.workerRegistrationKey }),
      deps,
      logger,
      // Relative: the router has no public address; clients use the host they fetched the document from.
      publicBaseUrl: '/',
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
        const flushed = await runledger.router.flushOutbox();
        if (flushed > 0) logger.info({ flushed }, 'router receipt outbox flushed');
        return expired;
      },
      config.routerSweepSeconds,
      logger,
    );
    opened.push(() => sweeper.stop());

    let closing: Promise<void> | undefined;
    return {
      url: main.url,
      routerUrl: router.url,
      sweepLeases: () => sweeper.runNow(),
      close: () => (closing ??= closeOpened()),
    };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}
