import { webhookUseCases, type WebhookUseCases } from '@runledger/core/adapter';
import type { Clock, Random, Storage } from '@runledger/core/ports';
import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics/registry.js';
import { registerWebhookMetrics } from '../ops/metrics/webhook-metrics.js';
import type { WebhookConfig } from './config.js';
import { secretBox } from './secret-box.js';
import { loopPacer } from './pacer.js';
import { createSender } from './sender.js';
import { urlGuard } from './url-guard.js';
import { startWebhookWorker } from './worker.js';

export interface WebhooksOptions {
  config: WebhookConfig;
  production: boolean;
  /** JWT_SECRET: the sealing key of the signing secrets is derived from it. */
  serverSecret: string;
  storage: Storage;
  clock: Clock;
  random: Random;
  metrics: Metrics;
  logger: Logger;
}

/** Deliveries claimed and sent together per round. */
const BATCH = 64;
/** Rounds in flight at once in this process. */
const LOOPS = 4;

/** The webhook use cases for the routes, and this process's delivery worker (unless WEBHOOK_WORKER=off). */
export function startWebhooks(o: WebhooksOptions): {
  useCases: WebhookUseCases;
  stop(): Promise<void>;
} {
  const box = secretBox(o.serverSecret);
  const guard = urlGuard({ allow: o.config.allowPrivate, httpsOnly: o.production });
  const useCases = webhookUseCases(o, { box, guard });
  const onOutcome = registerWebhookMetrics(o.metrics.registry, o.storage, () => o.clock.now());
  if (!o.config.worker) return { useCases, stop: async () => undefined };
  const sender = createSender(o.config.allowPrivate, o.config.timeoutMs);
  const worker = startWebhookWorker({
    storage: o.storage,
    box,
    sender,
    clock: o.clock,
    logger: o.logger,
    schedule: o.config.retrySeconds,
    pollMs: o.config.pollMs,
    batch: BATCH,
    loops: LOOPS,
    // Longer than an attempt's timeout, with room for the batch's transactions.
    leaseMs: Math.max(o.config.leaseSeconds * 1000, o.config.timeoutMs + 1000),
    onOutcome,
    pacer: loopPacer(),
  });
  return {
    useCases,
    async stop() {
      await worker.stop();
      sender.close();
    },
  };
}
