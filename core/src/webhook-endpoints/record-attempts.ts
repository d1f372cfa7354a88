import type {
  Storage,
  WriteTransaction,
  WebhookEndpointRecord,
  ClaimedDelivery,
} from '../ports/storage.js';
import { recordAudit } from '../audit-receipts/record.js';
import type { AttemptOutcome } from '../webhooks/attempts.js';

const DEPLOYMENT = { kind: 'deployment' as const, id: null };

/** One settled attempt: the claim it answers and what it decided. */
export interface SettledAttempt {
  claimed: ClaimedDelivery;
  outcome: AttemptOutcome;
}

/**
 * Records a batch of attempts in one transaction: each delivery's new state (only where this
 * claimer still holds the lease: one that lost it to another instance records nothing), each
 * endpoint's failure streak, and any endpoint disabled (its pending deliveries fail, and a
 * `webhook.disabled` audit receipt is written with the change). Returns the attempts recorded.
 */
export async function recordAttempts(
  storage: Storage,
  owner: string,
  attempts: readonly SettledAttempt[],
  now: Date,
): Promise<number> {
  if (attempts.length === 0) return 0;
  return storage.write(async (tx) => {
    const settled = await Promise.all(
      attempts.map(({ claimed, outcome }) =>
        tx.webhookOutbox.settle(
          claimed.delivery.event_id,
          claimed.delivery.endpoint_id,
          owner,
          outcome.settlement,
        ),
      ),
    );
    const last = new Map<string, SettledAttempt>();
    attempts.forEach((a, i) => {
      if (settled[i]) last.set(a.claimed.endpoint.id, a);
    });
    for (const { claimed, outcome } of [...last.values()].sort(byEndpoint)) {
      await updateEndpoint(tx, claimed.endpoint, outcome, now);
    }
    return settled.filter(Boolean).length;
  });
}

const byEndpoint = (a: SettledAttempt, b: SettledAttempt) =>
  a.claimed.endpoint.id < b.claimed.endpoint.id ? -1 : 1;

async function updateEndpoint(
  tx: WriteTransaction,
  claimed: WebhookEndpointRecord,
  outcome: AttemptOutcome,
  now: Date,
) {
  const current = await tx.webhookEndpoints.byId(claimed.org_id, claimed.id);
  if (!current || !current.enabled) return;
  const disable = outcome.disable;
  if (disable === null && current.failing_since === outcome.failing_since) return;
  const at = now.toISOString();
  const next: WebhookEndpointRecord = {
    ...current,
    failing_since:
      outcome.failing_since === null ? null : (current.failing_since ?? outcome.failing_since),
    enabled: disable === null,
    disabled_reason: disable,
    updated_at: at,
  };
  await tx.webhookEndpoints.update(next);
  if (disable === null) return;
  await tx.webhookOutbox.failPending(current.id, `endpoint disabled (${disable})`, at);
  await recordAudit(
    tx,
    current.org_id,
    DEPLOYMENT,
    { type: 'webhook.disabled', webhook_id: current.id, url: current.url, reason: disable },
    now,
  );
}
