import { randomBytes } from 'node:crypto';
import {
  attemptOutcome,
  recordAttempts,
  retryAfterSeconds,
  type SecretBox,
  type SettledAttempt,
} from '@runledger/core/adapter';
import type { ClaimedDelivery, Clock, Storage } from '@runledger/core/ports';
import type { Logger } from 'pino';
import type { Pacer } from './pacer.js';
import type { Sender } from './sender.js';
import { webhookHeaders } from './sign.js';

export interface WebhookWorkerOptions {
  storage: Storage;
  box: SecretBox;
  sender: Sender;
  clock: Clock;
  logger: Logger;
  /** Delays after failures 1, 2, … in seconds (the Standard Webhooks schedule or WEBHOOK_RETRY_SECONDS). */
  schedule: readonly number[];
  /** How often an idle worker looks for due deliveries. */
  pollMs: number;
  /** Deliveries claimed and sent together. */
  batch: number;
  /** Claim-send-record loops run side by side. */
  loops: number;
  /** How long a claim lives: an instance that dies leaves its claims to others after this. */
  leaseMs: number;
  /** Counts each attempt by outcome (delivered, retry, failed, disabled). */
  onOutcome?: (outcome: string) => void;
  /** Sizes and spaces the rounds while the process is saturated (pacer.ts); none: always full. */
  pacer?: Pacer;
}

export interface WebhookWorker {
  /** Looks for due deliveries now instead of at the next poll. */
  wake(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
}

/** The secrets that sign an attempt: the current one, and the one before a rotation for 24 hours. */
function secretsOf(claimed: ClaimedDelivery, box: SecretBox, now: Date): string[] {
  const e = claimed.endpoint;
  const secrets = [box.open(e.secret_sealed)];
  if (e.previous_secret_sealed !== null && e.previous_secret_until !== null) {
    if (Date.parse(e.previous_secret_until) > now.getTime()) {
      secrets.push(box.open(e.previous_secret_sealed));
    }
  }
  return secrets;
}

/** Sends one claimed delivery, signed afresh (a new timestamp on every attempt). */
async function send(o: WebhookWorkerOptions, claimed: ClaimedDelivery, at: Date) {
  let secrets: string[];
  try {
    secrets = secretsOf(claimed, o.box, at);
  } catch {
    // A secret sealed under another JWT_SECRET: the attempt fails, nothing is sent unsigned.
    return { status: null, latency_ms: 0, error: 'signing secret unreadable', retry_after: null };
  }
  const id = claimed.delivery.event_id;
  const body = claimed.payload_text;
  const headers = webhookHeaders(secrets, id, Math.floor(at.getTime() / 1000), body);
  return o.sender.send(claimed.endpoint.url, headers, body);
}

async function attempt(o: WebhookWorkerOptions, claimed: ClaimedDelivery): Promise<SettledAttempt> {
  const sent = await send(o, claimed, o.clock.now());
  const now = o.clock.now();
  const result = {
    status: sent.status,
    latency_ms: sent.latency_ms,
    error: sent.error,
    retry_after_seconds: retryAfterSeconds(sent.retry_after, now),
  };
  return { claimed, outcome: attemptOutcome(claimed, result, now, o.schedule, Math.random()) };
}

function outcomeName({ outcome }: SettledAttempt): string {
  if (outcome.disable !== null) return 'disabled';
  return outcome.settlement.state === 'pending' ? 'retry' : outcome.settlement.state;
}

/**
 * One round: claims up to `size` (else `batch`) due deliveries under a lease, sends them all at once
 * and records the outcomes in one transaction. Resolves with how many were claimed.
 */
export async function deliverOnce(
  o: WebhookWorkerOptions,
  owner: string,
  size = o.batch,
): Promise<number> {
  const now = o.clock.now();
  const leaseUntil = new Date(now.getTime() + o.leaseMs).toISOString();
  const claimed = await o.storage.write((tx) =>
    tx.webhookOutbox.claim(owner, now.toISOString(), leaseUntil, size),
  );
  if (claimed.length === 0) return 0;
  const settled = await Promise.all(claimed.map((c) => attempt(o, c)));
  await recordAttempts(o.storage, owner, settled, o.clock.now());
  for (const s of settled) o.onOutcome?.(outcomeName(s));
  return claimed.length;
}

interface Loop {
  wake(): void;
  stop(): Promise<void>;
}

/**
 * One claim-send-record loop: rounds back to back while they come back full (and then `onFull`
 * wakes the other loops), else, if it `polls`, one every `pollMs`; a loop that does not poll
 * waits for a wake.
 */
function startLoop(
  o: WebhookWorkerOptions,
  owner: () => string,
  polls: boolean,
  onFull: () => void,
): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  const after = (claimed: number, size: number) => {
    if (claimed >= size) {
      schedule(0);
      onFull();
    } else if (polls) schedule(o.pollMs);
  };
  function run() {
    timer = null;
    if (running || stopped) return;
    running = (o.pacer?.grant(o.batch) ?? Promise.resolve(o.batch))
      // A stop that came while the pacer held the round back ends it before it claims anything.
      .then(async (size) => {
        if (!stopped) after(await deliverOnce(o, owner(), size), size);
      })
      .catch((error: unknown) => {
        o.logger.error({ err: error }, 'webhook delivery round failed');
        if (polls) schedule(o.pollMs);
      })
      .finally(() => {
        running = null;
      });
  }
  schedule(0);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * The delivery worker of this process (docs/webhooks.md, "Delivery"): `loops` claim-send-record
 * loops side by side, so one batch's network wait overlaps another's transactions. Only the first
 * polls while there is nothing to do; a full round wakes the rest. Each round's claim has an owner
 * token of its own, so a late settlement of an expired claim changes nothing.
 */
export function startWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const instance = randomBytes(6).toString('hex');
  let round = 0;
  const loops: Loop[] = [];
  const wakeAll = () => loops.forEach((l) => l.wake());
  for (let i = 0; i < o.loops; i++) {
    loops.push(startLoop(o, () => `${instance}:${round++}`, i === 0, wakeAll));
  }
  return {
    wake: wakeAll,
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
