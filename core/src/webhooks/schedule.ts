/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"). The Standard Webhooks
 * schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after each failure.
 * The first attempt is the "at once"; these are the delays after failures 1 to 9.
 */
export const STANDARD_RETRY_SECONDS: readonly number[] = [
  5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
];

/** Up to this fraction of a delay is added at random, so failed deliveries do not return in step. */
export const JITTER = 0.2;

/** A `Retry-After` longer than this is capped (the longest step of the schedule). */
export const MAX_RETRY_AFTER_SECONDS = 86400;

/** Five days of failures without a success disable an endpoint. */
export const FAILING_DISABLES_AFTER_MS = 5 * 86400_000;

/**
 * Milliseconds until the next attempt after `failures` failed attempts (1 or more), or null when
 * the schedule is spent. `jitter` in [0, 1) scales the random part; a receiver's `Retry-After`
 * (seconds) is honoured when it asks for longer than the schedule.
 */
export function retryDelayMs(
  schedule: readonly number[],
  failures: number,
  jitter: number,
  retryAfterSeconds: number | null,
): number | null {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError('failures must be ≥ 1');
  const step = schedule[failures - 1];
  if (step === undefined) return null;
  const scheduled = Math.round(step * 1000 * (1 + JITTER * jitter));
  if (retryAfterSeconds === null) return scheduled;
  const asked = Math.min(Math.max(retryAfterSeconds, 0), MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.max(scheduled, asked);
}

/**
 * Reads `WEBHOOK_RETRY_SECONDS`: comma-separated non-negative seconds replacing the schedule.
 * Returns null for an invalid value (the caller reports it).
 */
export function parseRetrySchedule(text: string): number[] | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return null;
  return parts.map(Number);
}

/** A `Retry-After` header as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, (at - now.getTime()) / 1000);
}
