import type {
  ClaimedDelivery,
  DeliverySettlement,
  WebhookEndpointRecord,
} from '../ports/storage.js';
import { FAILING_DISABLES_AFTER_MS, retryDelayMs } from './schedule.js';

/** What one HTTP attempt gave: a status (null when no answer came), its latency and any error. */
export interface AttemptResult {
  status: number | null;
  latency_ms: number;
  /** A short reason for a failure without an answer (timeout, refused address, reset). */
  error: string | null;
  /** The answer's `Retry-After`, in seconds, when it sent one. */
  retry_after_seconds: number | null;
}

export type DisableReason = 'gone' | 'failing';

/** The delivery's new state after an attempt, and whether the endpoint must be disabled. */
export interface AttemptOutcome {
  settlement: DeliverySettlement;
  /** The endpoint's `failing_since` after this attempt. */
  failing_since: string | null;
  disable: DisableReason | null;
}

export const isSuccess = (status: number | null) =>
  status !== null && status >= 200 && status < 300;

/**
 * Decides what an attempt means (docs/webhooks.md, "Retries"): a 2xx delivers; a 410 disables the
 * endpoint; any other failure is retried on the schedule until it is spent (the delivery fails) or
 * the endpoint has failed for five days without a success (it is disabled).
 */
export function attemptOutcome(
  claimed: ClaimedDelivery,
  result: AttemptResult,
  now: Date,
  schedule: readonly number[],
  jitter: number,
): AttemptOutcome {
  const attempts = claimed.delivery.attempts + 1;
  const at = now.toISOString();
  const base = {
    attempts,
    last_status: result.status,
    last_latency_ms: Math.round(result.latency_ms),
    last_error: result.error,
    updated_at: at,
  };
  if (isSuccess(result.status)) {
    return {
      settlement: { ...base, state: 'delivered', next_attempt_at: null },
      failing_since: null,
      disable: null,
    };
  }
  const failingSince = claimed.endpoint.failing_since ?? at;
  const disable = disableReason(claimed.endpoint, result.status, failingSince, now);
  const delay =
    disable === null ? retryDelayMs(schedule, attempts, jitter, result.retry_after_seconds) : null;
  const settlement: DeliverySettlement =
    delay === null
      ? { ...base, state: 'failed', next_attempt_at: null }
      : {
          ...base,
          state: 'pending',
          next_attempt_at: new Date(now.getTime() + delay).toISOString(),
        };
  return { settlement, failing_since: failingSince, disable };
}

function disableReason(
  endpoint: WebhookEndpointRecord,
  status: number | null,
  failingSince: string,
  now: Date,
): DisableReason | null {
  if (status === 410) return 'gone';
  if (now.getTime() - Date.parse(failingSince) >= FAILING_DISABLES_AFTER_MS) return 'failing';
  return null;
}
