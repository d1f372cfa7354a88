import type { BlockList } from 'node:net';
import { STANDARD_RETRY_SECONDS, parseRetrySchedule } from '@runledger/core/adapter';
import { ConfigError } from '../config-error.js';
import { parseAllowList } from './address-policy.js';

/** The webhook settings of docs/configuration.md. */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: ranges a webhook may reach despite the request-forgery policy. */
  allowPrivate: BlockList;
  /** Delays after failures 1, 2, … in seconds: WEBHOOK_RETRY_SECONDS or the Standard Webhooks schedule. */
  retrySeconds: readonly number[];
  /** WEBHOOK_POLL_MS: how often an idle delivery worker looks for due deliveries. */
  pollMs: number;
  /** WEBHOOK_TIMEOUT_MS: an attempt without an answer within this long fails (15 s). */
  timeoutMs: number;
  /** WEBHOOK_LEASE_SECONDS: how long a claim lives; a dead instance's claims pass to others after it (60). */
  leaseSeconds: number;
  /** WEBHOOK_WORKER: `on` (default) delivers from this process; `off` leaves it to other instances. */
  worker: boolean;
}

type Env = Record<string, string | undefined>;

export function loadWebhookConfig(env: Env): WebhookConfig {
  const allowPrivate = parseAllowList(env.WEBHOOK_ALLOW_PRIVATE ?? '');
  if (allowPrivate === null) {
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE must be comma-separated CIDRs, e.g. 127.0.0.1/32');
  }
  const retryText = env.WEBHOOK_RETRY_SECONDS ?? '';
  const retrySeconds = retryText === '' ? STANDARD_RETRY_SECONDS : parseRetrySchedule(retryText);
  if (retrySeconds === null) {
    throw new ConfigError('WEBHOOK_RETRY_SECONDS must be comma-separated seconds, e.g. 1,5,30');
  }
  const pollText = env.WEBHOOK_POLL_MS ?? '500';
  if (!/^\d+$/.test(pollText) || Number(pollText) < 10) {
    throw new ConfigError('WEBHOOK_POLL_MS must be an integer of at least 10');
  }
  const worker = env.WEBHOOK_WORKER ?? 'on';
  if (worker !== 'on' && worker !== 'off')
    throw new ConfigError('WEBHOOK_WORKER must be on or off');
  const timeoutText = env.WEBHOOK_TIMEOUT_MS ?? '15000';
  if (!/^\d+$/.test(timeoutText) || Number(timeoutText) < 100) {
    throw new ConfigError('WEBHOOK_TIMEOUT_MS must be an integer of at least 100');
  }
  const leaseText = env.WEBHOOK_LEASE_SECONDS ?? '60';
  if (!/^\d+$/.test(leaseText) || Number(leaseText) < 1) {
    throw new ConfigError('WEBHOOK_LEASE_SECONDS must be a positive integer');
  }
  return {
    allowPrivate,
    leaseSeconds: Number(leaseText),
    retrySeconds,
    pollMs: Number(pollText),
    timeoutMs: Number(timeoutText),
    worker: worker === 'on',
  };
}
