import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMicrosPerOp, cpuNow } from './load.js';

/**
 * Open-loop load: operations arrive at a fixed offered rate (Poisson arrivals) whatever the answers,
 * and each latency is counted from the operation's scheduled arrival, not from when it was sent. A
 * closed loop of N clients that never pause measures N ÷ rate by Little's law; this measures the tail
 * a steady stream of independent callers sees, including time spent queued behind a slow answer.
 */
export interface OpenLoopFigures {
  offered_rate: number;
  /** Operations answered successfully within the window, per second of it. */
  achieved_rate: number;
  p50_ms: number;
  p99_ms: number;
  p999_ms: number;
  count: number;
  errors: number;
  error_samples: string[];
  /** How far behind its schedule the generator itself fell at worst (its own CPU starved). */
  max_send_lag_ms: number;
  /** CPU microseconds per operation answered, by process, from the window's start until all were answered. */
  cpu_us_per_op: Record<string, number | null>;
}

/** A deterministic exponential sampler (mulberry32), so runs at one rate offer the same arrivals. */
export function exponentialGaps(ratePerSecond: number, seed = 1): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => (-Math.log(1 - uniform()) / ratePerSecond) * 1000;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Offers `op` at `ratePerSecond` for `seconds`, then waits for every operation sent to finish.
 * `op` returns false when it has nothing left to do (the seeded work ran out): that ends the window.
 */
export async function driveOpenLoop(
  ratePerSecond: number,
  seconds: number,
  op: () => Promise<boolean>,
): Promise<OpenLoopFigures> {
  const gap = exponentialGaps(ratePerSecond);
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let errors = 0;
  let inWindow = 0;
  let maxLag = 0;
  let exhausted = false;
  const cpuBefore = await cpuNow();
  const started = performance.now();
  const end = started + seconds * 1000;
  let next = started + gap();
  const fire = (scheduled: number) => {
    maxLag = Math.max(maxLag, performance.now() - scheduled);
    const sent = op().then(
      (more) => {
        const now = performance.now();
        if (!more) exhausted = true;
        else {
          latencies.push(now - scheduled);
          if (now <= end) inWindow += 1;
        }
      },
      (error: unknown) => {
        errors += 1;
        if (errorSamples.length < 5) errorSamples.push(String(error).slice(0, 300));
      },
    );
    const tracked = sent.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  while (next < end && !exhausted) {
    // Every arrival already due goes out now; a timer wakes at millisecond granularity, so arrivals
    // leave in bunches of up to a millisecond, and that wait is counted in their latency.
    for (const now = performance.now(); next <= now && next < end; next += gap()) fire(next);
    await sleep(Math.max(0, next - performance.now()));
  }
  const windowSeconds = (Math.min(performance.now(), end) - started) / 1000;
  await Promise.all(inFlight);
  const cpuPerOp = cpuMicrosPerOp(cpuBefore, await cpuNow(), latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    offered_rate: ratePerSecond,
    achieved_rate: inWindow / windowSeconds,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    p999_ms: percentile(latencies, 99.9),
    count: latencies.length,
    errors,
    error_samples: errorSamples,
    max_send_lag_ms: maxLag,
    cpu_us_per_op: cpuPerOp,
  };
}
