import { ConfigError, loadConfig } from './config.js';
import { createLogger, prettyDestination } from './logger.js';
import { startServer } from './start.js';
import { runOpsCommand } from './ops/commands.js';
import { HistoryRollbackError } from './ops/history/history-guard.js';

/**
 * `npm start`: read the environment, serve both APIs, and shut down cleanly on SIGTERM/SIGINT
 * (docs/operations.md, "Shutdown"): /ready turns 503 at once, requests are still served for
 * SHUTDOWN_GRACE_SECONDS, then the listeners stop accepting, in-flight requests finish and storage
 * closes. A second signal skips what is left of the grace period.
 */
async function main(): Promise<void> {
  const exitCode = await runOpsCommand(process.argv.slice(2));
  if (exitCode !== null) process.exit(exitCode);
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`runledger: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(
    config.logLevel,
    config.logFormat === 'pretty' ? prettyDestination() : undefined,
  );
  const server = await startServer(config, { logger });
  logger.info(
    {
      url: server.url,
      router_url: server.routerUrl,
      metrics_url: server.metricsUrl,
      data_dir: config.dataDir,
      production: config.production,
    },
    `runledger listening on ${server.url} (router API on ${server.routerUrl})`,
  );

  let endGrace: (() => void) | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      endGrace?.();
      return;
    }
    stopping = true;
    server.drain();
    const graceSeconds = config.shutdownGraceSeconds;
    logger.info({ signal, grace_seconds: graceSeconds }, 'draining: /ready answers 503');
    const grace = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceSeconds * 1000);
      endGrace = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    grace
      .then(() => {
        logger.info('shutting down: finishing in-flight requests');
        return server.close();
      })
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof HistoryRollbackError) {
    console.error(`runledger: ${error.message}`);
    process.exit(1);
  }
  console.error('runledger failed to start:', error);
  process.exit(1);
});
