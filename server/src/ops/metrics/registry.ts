import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { eventLoopBusySeconds } from './event-loop.js';

/** Seconds: from a fast read (0.5 ms) to a slow request (10 s). */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Transactions per group-commit batch (at most 256). */
const BATCH = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * Every series the server exports (docs/operations.md, "Metrics"), in one registry. Labels are
 * bounded: routes are declared templates, methods a fixed set, statuses the declared ones.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  registerEventLoopBusy(registers);
  return {
    registry,
    httpRequests: new Counter({
      name: 'runledger_http_requests_total',
      help: 'HTTP requests answered, by API, method, declared route template and status',
      labelNames: ['api', 'method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'runledger_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by API, method, route template and status',
      labelNames: ['api', 'method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    receiptsMinted: new Counter({
      name: 'runledger_receipts_minted_total',
      help: 'Ledger receipts minted by this process (counted once their transaction committed)',
      registers,
    }),
    routerReceipts: new Counter({
      name: 'runledger_router_receipts_appended_total',
      help: 'Router receipts appended to the receipt files by this process',
      registers,
    }),
    leaseOutcomes: new Counter({
      name: 'runledger_lease_outcomes_total',
      help: 'Job leases: leased (a worker got a job), expired (the sweeper took it back), stale_token (a call under a lease refused with 409)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    transactionSeconds: new Histogram({
      name: 'runledger_storage_transaction_seconds',
      help: 'Storage transactions from submission to settlement, by kind (read, write) and outcome (ok, error)',
      labelNames: ['kind', 'outcome'] as const,
      buckets: SECONDS,
      registers,
    }),
    batchSize: new Histogram({
      name: 'runledger_storage_group_commit_batch_size',
      help: 'Write transactions per group-commit batch (SQLite)',
      buckets: BATCH,
      registers,
    }),
    commitSeconds: new Histogram({
      name: 'runledger_storage_group_commit_seconds',
      help: 'Time from BEGIN to the COMMIT that made a group-commit batch durable (SQLite)',
      buckets: SECONDS,
      registers,
    }),
    logSyncSeconds: new Histogram({
      name: 'runledger_storage_log_sync_seconds',
      help: "The write-ahead log's sync (fdatasync) of each group-commit batch, part of its commit time (SQLite)",
      buckets: SECONDS,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The main thread's busy seconds, read at each scrape; nothing reads the counter in between. */
function registerEventLoopBusy(registers: Registry[]): void {
  let counted = 0;
  new Counter({
    name: 'runledger_event_loop_busy_seconds_total',
    help: "Seconds the main thread's event loop spent running, not waiting for I/O: near one a second, the server is at capacity",
    registers,
    collect() {
      const busy = eventLoopBusySeconds();
      this.inc(busy - counted);
      counted = busy;
    },
  });
}
