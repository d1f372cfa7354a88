import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The share of wall time the event loop spent busy since the previous reading, 0 to 1. */
export type LoopMeter = () => number;

/** The event loop's utilization (node:perf_hooks) since the previous reading. */
export function eventLoopMeter(): LoopMeter {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    return since.utilization;
  };
}

export interface PacerOptions {
  meter: LoopMeter;
  /** Milliseconds on a monotonic clock, and a wait on it. */
  now: () => number;
  wait: (ms: number) => Promise<void>;
  /** At or above this utilization the process counts as saturated. */
  saturated: number;
  /** How often a worker at full pace looks at the utilization. */
  checkMs: number;
  /** How long the worker pauses to see whether the load is its own. */
  probeMs: number;
  /** After finding the load its own, how long before it looks again. */
  ownLoadMs: number;
  /** While yielding: one round of this many deliveries per `yieldMs`, across all loops. */
  yieldBatch: number;
  yieldMs: number;
}

/** Figures for the server's worker (docs/webhooks.md, "Delivery under load"). */
export const DEFAULT_PACING: Omit<PacerOptions, 'meter' | 'now' | 'wait'> = {
  saturated: 0.85,
  checkMs: 100,
  probeMs: 60,
  ownLoadMs: 2000,
  yieldBatch: 16,
  yieldMs: 100,
};

/** Decides each delivery round's size, and when it may start. */
export interface Pacer {
  /** Waits until a round may start; resolves with how many deliveries it may claim. */
  grant(full: number): Promise<number>;
  /** Whether the worker is yielding to a saturated process right now. */
  readonly yielding: boolean;
}

/**
 * Delivery is background work: while the process is saturated by something else (requests), the
 * worker keeps to a floor of `yieldBatch` deliveries per `yieldMs` so foreground throughput stays
 * within a few percent, and returns to full pace when the load falls. When the utilization is high
 * it pauses for `probeMs` and reads it again: if the loop went quiet, the load was the worker's own
 * (a backlog being drained), and it keeps its full pace.
 */
export function createPacer(o: PacerOptions): Pacer {
  let yielding = false;
  let nextCheck = 0;
  let nextSlot = 0;
  let lastLook = 0;
  let probing: Promise<void> | null = null;

  const probe = async () => {
    o.meter();
    await o.wait(o.probeMs / 2);
    o.meter();
    await o.wait(o.probeMs / 2);
    // With the worker paused, what still keeps the loop at least half as busy as `saturated` is others' load.
    const others = o.meter();
    yielding = others >= o.saturated / 2;
    lastLook = o.now();
    nextCheck = lastLook + o.ownLoadMs;
  };

  /** At full pace: a look every `checkMs`, and a probe when the loop is saturated. */
  const fullPace = async (): Promise<void> => {
    const now = o.now();
    if (now < nextCheck) return;
    nextCheck = now + o.checkMs;
    if (o.meter() < o.saturated) return;
    probing ??= probe().finally(() => {
      probing = null;
    });
    await probing;
  };

  /** While yielding: one slot per `yieldMs` across every loop, and a look at the load per interval. */
  const yieldSlot = async (): Promise<void> => {
    const now = o.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + o.yieldMs;
    if (at > now) await o.wait(at - now);
    if (o.now() - lastLook < o.yieldMs) return;
    lastLook = o.now();
    if (o.meter() < o.saturated) yielding = false;
  };

  return {
    async grant(full) {
      if (probing) await probing;
      if (!yielding) await fullPace();
      if (!yielding) return full;
      await yieldSlot();
      return yielding ? Math.min(full, o.yieldBatch) : full;
    },
    get yielding() {
      return yielding;
    },
  };
}

/** The server's pacer: the event loop's own utilization, real timers, the default figures. */
export function loopPacer(): Pacer {
  return createPacer({
    ...DEFAULT_PACING,
    meter: eventLoopMeter(),
    now: () => performance.now(),
    wait: (ms) => sleep(ms),
  });
}
