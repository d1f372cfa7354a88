import type { Storage } from '@runledger/core/ports';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Webhook delivery series (docs/webhooks.md, "Metrics"): attempts by outcome, counted by this
 * process; the queue's depth and the age of its oldest pending delivery, read from storage at
 * each scrape (so every instance reports the shared queue).
 */
export function registerWebhookMetrics(
  registry: Registry,
  storage: Storage,
  now: () => Date,
): (outcome: string) => void {
  const registers = [registry];
  const deliveries = new Counter({
    name: 'runledger_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by outcome (delivered, retry, failed, disabled)',
    labelNames: ['outcome'] as const,
    registers,
  });
  let scrape: Promise<{ pending: number; oldest_created_at: string | null }> | null = null;
  const read = () => {
    scrape ??= storage
      .read((tx) => tx.webhookOutbox.backlog())
      .finally(() => setImmediate(() => (scrape = null)));
    return scrape;
  };
  new Gauge({
    name: 'runledger_webhook_queue_depth',
    help: 'Webhook deliveries pending (waiting for their first attempt or a retry)',
    registers,
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: 'runledger_webhook_oldest_pending_seconds',
    help: 'Age of the oldest pending webhook delivery, 0 when none is pending',
    registers,
    async collect() {
      const oldest = (await read()).oldest_created_at;
      this.set(oldest === null ? 0 : Math.max(0, (now().getTime() - Date.parse(oldest)) / 1000));
    },
  });
  return (outcome) => deliveries.inc({ outcome });
}
