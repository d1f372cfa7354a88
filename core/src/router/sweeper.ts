import type { RouterUseCases } from './api.js';
import type { RouterContext } from './context.js';
import { applyJobEvent } from './job-events.js';

/** Expired leases handled per transaction, so one sweep never holds the write lock for long. */
const SWEEP_BATCH = 200;

export function sweeperUseCases(ctx: RouterContext): Pick<RouterUseCases, 'sweepExpiredLeases'> {
  const { clock, outbox, config } = ctx;
  return {
    async sweepExpiredLeases() {
      const now = clock.now();
      const at = now.toISOString();
      let total = 0;
      for (;;) {
        const swept = await outbox.write(async (tx, receipts) => {
          const expired = await tx.jobs.expiredLeases(at, SWEEP_BATCH);
          for (const job of expired) {
            const event = { type: 'expire', now, maxAttempts: config.jobMaxAttempts } as const;
            const next = await applyJobEvent(
              tx,
              job,
              event,
              at,
              job.attempt >= config.jobMaxAttempts
                ? { error: 'lease expired on the last attempt', finished_at: at }
                : {},
            );
            receipts.push(
              ctx.receipt('lease_expired', at, {
                job_id: job.job_id,
                worker_id: job.worker_id,
                lease_epoch: job.lease_epoch,
                attempt: job.attempt,
                outcome: next.job.status === 'failed' ? 'failed' : 'requeued',
              }),
            );
          }
          return expired.length;
        });
        total += swept;
        if (swept < SWEEP_BATCH) return total;
      }
    },
  };
}
