import { httpWitnessClient } from '@runledger/adapters';
import { witnessAllLogs, type WitnessingDeps, type WitnessReport } from '@runledger/core/adapter';
import type { Clock, Storage } from '@runledger/core/ports';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ServerConfig } from '../config.js';

/**
 * Offers each log's newest checkpoint to the witnesses every `intervalSeconds` (docs/witnesses.md).
 * Rounds never overlap; a failed round is logged and the next tick tries again. Minting never
 * waits for it: a checkpoint is cosigned within about one interval of the mint (plus the witnesses'
 * answer time), which the metrics show.
 */
export interface Witnessing {
  /** One round now; resolves with its reports. */
  runNow(): Promise<WitnessReport[]>;
  stop(): Promise<void>;
}

function witnessMetrics(registry: Registry) {
  const registers = [registry];
  return {
    requests: new Counter({
      name: 'runledger_witness_requests_total',
      help: 'add-checkpoint requests to witnesses, by witness URL and outcome (cosigned, ahead, conflict, refused, unreachable)',
      labelNames: ['witness', 'outcome'] as const,
      registers,
    }),
    lastCosigned: new Gauge({
      name: 'runledger_witness_last_cosigned_timestamp_seconds',
      help: 'When each witness last cosigned a checkpoint for this process (Unix seconds): its age is how stale cosigned checkpoints can be',
      labelNames: ['witness'] as const,
      registers,
    }),
    lastRound: new Gauge({
      name: 'runledger_witness_round_completed_timestamp_seconds',
      help: 'When the last witnessing round over every log ended (Unix seconds)',
      registers,
    }),
  };
}

export function startWitnessing(
  deps: WitnessingDeps,
  intervalSeconds: number,
  logger: Logger,
  registry: Registry,
): Witnessing {
  const metrics = witnessMetrics(registry);
  let running: Promise<WitnessReport[]> | null = null;
  let stopped = false;
  const round = async () => {
    const reports = await witnessAllLogs(deps);
    const now = Date.now() / 1000;
    for (const r of reports) {
      metrics.requests.inc({ witness: r.witness, outcome: r.outcome });
      if (r.outcome === 'cosigned') metrics.lastCosigned.set({ witness: r.witness }, now);
      else logger.warn({ ...r }, 'witness did not cosign');
    }
    metrics.lastRound.set(now);
    return reports;
  };
  const runNow = () => {
    if (stopped) return Promise.reject(new Error('witnessing is stopped'));
    running ??= round().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => {
    runNow().catch((error: unknown) => logger.error({ err: error }, 'witnessing round failed'));
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

/** The server's witnessing (WITNESSES over HTTP), or null when no witness is configured. */
export function witnessingOf(
  config: ServerConfig,
  storage: Storage,
  clock: Clock,
  logger: Logger,
  registry: Registry,
): Witnessing | null {
  if (config.witnesses.length === 0) return null;
  const deps: WitnessingDeps = {
    storage,
    clock,
    checkpointSigner: config.checkpointSigner,
    publicBaseUrl: config.publicBaseUrl,
    client: httpWitnessClient(),
    witnesses: config.witnesses,
  };
  return startWitnessing(deps, config.witnessIntervalSeconds, logger, registry);
}
