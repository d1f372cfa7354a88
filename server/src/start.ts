import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import {
  consoleMailer,
  cryptoRandom,
  openFileBlobStore,
  openSqliteStorage,
  smtpMailer,
  systemClock,
} from '@runledger/adapters';
import { createRunledger, type Clock, type Mailer } from '@runledger/core';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { jwtSigner } from './http/jwt.js';
import { FixedWindowLimiter } from './http/rate-limit.js';
import { createLogger } from './logger.js';
import { allRoutes } from './routes/index.js';

export interface StartOptions {
  /** Tests pass a clock they can move (link expiry, JWT expiry, rate-limit windows). */
  clock?: Clock;
  mailer?: Mailer;
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  /** Stops accepting, lets in-flight requests finish, then closes storage. */
  close(): Promise<void>;
}

/** The composition root: adapters → core → HTTP, listening on config.host:config.port (0 picks a free port). */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock();
  mkdirSync(config.dataDir, { recursive: true });
  const storage = await openSqliteStorage({ file: join(config.dataDir, 'runledger.sqlite') });
  const blobs = await openFileBlobStore(join(config.dataDir, 'blobs'));
  const mailer =
    options.mailer ??
    (config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : consoleMailer((line: string) => logger.info(line)));
  const runledger = createRunledger(
    { storage, clock, random: cryptoRandom(), mailer, blobs },
    {
      publicBaseUrl: config.publicBaseUrl,
      production: config.production,
      magicLinkTtlMinutes: config.magicLinkTtlMinutes,
      inviteTtlHours: config.inviteTtlHours,
      receiptPrefix: config.receiptPrefix,
    },
  );
  const signer = jwtSigner(config.jwtSecret, config.jwtTtlHours, clock);
  const windowMs = config.authRequestLimit.windowSeconds * 1000;
  const limits = {
    perEmail: new FixedWindowLimiter(clock, config.authRequestLimit.perEmail, windowMs),
    perIp: new FixedWindowLimiter(clock, config.authRequestLimit.perIp, windowMs),
  };
  const app = createApp({
    routes: allRoutes({ runledger, signer, limits, blobs }),
    deps: { runledger, signer },
    logger,
    publicBaseUrl: config.publicBaseUrl,
    jsonBodyLimit: config.jsonBodyLimit,
  });

  const server: Server = app.listen(config.port, config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await storage.close();
    throw error;
  }
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Idle keep-alive connections would hold close() open forever; busy ones finish their request first.
      server.closeIdleConnections();
      await closed;
      await storage.close();
    })();
    return closing;
  };
  return { url, close };
}
