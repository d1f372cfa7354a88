import type { Logger } from 'pino';

export interface Sweeper {
  /** One sweep now (what each tick does); resolves with how many leases expired. Rejects once stopped. */
  runNow(): Promise<number>;
  /** Clears the interval and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `sweep` every `intervalSeconds`. Ticks never overlap: a tick that finds the previous sweep
 * still running shares it instead of starting another. A failed sweep is logged and retried next tick.
 */
export function startSweeper(
  sweep: () => Promise<number>,
  intervalSeconds: number,
  logger: Logger,
): Sweeper {
  let running: Promise<number> | null = null;
  let stopped = false;

  const runNow = () => {
    if (stopped) return Promise.reject(new Error('lease sweeper is stopped'));
    running ??= sweep().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    runNow().then(
      (expired) => {
        if (expired > 0) logger.info({ expired }, 'lease sweeper expired leases');
      },
      (error: unknown) => logger.error({ err: error }, 'lease sweep failed'),
    );
  }, intervalSeconds * 1000);

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
