import type { Runledger } from '@runledger/core';
import type { Clock } from '@runledger/core/ports';
import { Dataset, DatasetStageBody, PaymentEvent, PaymentReceived } from '@runledger/core/schemas';
import { z } from 'zod';
import { internalCredentialGuard, notConfigured } from '../http/credential.js';
import { defineRoute, type Route } from '../http/route.js';
import { verifyWebhookSignature } from '../http/webhook-signature.js';

export interface InternalRouteDeps {
  runledger: Runledger;
  clock: Clock;
  /** INTERNAL_API_KEY; null turns dataset staging off (503). */
  internalApiKey: string | null;
  /** PAYMENT_WEBHOOK_SECRET; null turns the webhook off (503). */
  paymentWebhookSecret: string | null;
}

const DatasetParams = z.object({ dataset_id: z.string().min(1).max(64) }).strict();

/** Internal routes on the main listener (docs/internal.md): never user-facing, each behind its own credential. */
export function internalRoutes(deps: InternalRouteDeps): Route[] {
  const { runledger, clock, internalApiKey, paymentWebhookSecret } = deps;
  return [
    defineRoute({
      method: 'post',
      path: '/internal/datasets/{dataset_id}/stage',
      summary: 'Moves a router dataset through staging: pending → staging → ready | failed',
      description:
        'Needs `X-Internal-Key` equal to INTERNAL_API_KEY (503 while unset, 401 when missing or different). ' +
        'Allowed: pending → staging, pending → ready, staging → ready, staging → failed (with an optional ' +
        '`error`); anything else, a repeat included, is 409. Access requests answer 409 until the dataset is ready.',
      tag: 'internal',
      auth: 'none',
      credentialHeader: 'X-Internal-Key',
      precondition: internalCredentialGuard({
        header: 'X-Internal-Key',
        secret: internalApiKey,
        setting: 'INTERNAL_API_KEY',
      }),
      params: DatasetParams,
      body: DatasetStageBody,
      status: 200,
      response: Dataset,
      errors: [401, 404, 409, 503],
      handler: async ({ params, body }) => runledger.router.stageDataset(params.dataset_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/payments',
      summary: 'Receives a signed payment event; membership.paid activates the member',
      description:
        '`X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(PAYMENT_WEBHOOK_SECRET, t + "." + raw body)>`; ' +
        'a missing or wrong signature, a changed body, or t more than 5 minutes from the server clock is ' +
        '401 and changes nothing; 503 while PAYMENT_WEBHOOK_SECRET is unset. Idempotent per event id: a ' +
        'repeat answers `duplicate: true`. `membership.paid` with amount "100.00" and currency USD activates ' +
        'the member (the same path as POST /members/{id}/activate, writing one `membership` receipt); other ' +
        'types, unknown members and other amounts are recorded with their `outcome` and change nothing.',
      tag: 'internal',
      auth: 'none',
      credentialHeader: 'X-Signature',
      rawBody: true,
      precondition: (req) => {
        if (paymentWebhookSecret === null) throw notConfigured('PAYMENT_WEBHOOK_SECRET');
        const raw: unknown = req.body;
        const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
        verifyWebhookSignature(req.get('x-signature'), bytes, paymentWebhookSecret, clock.now());
      },
      body: PaymentEvent,
      status: 200,
      response: PaymentReceived,
      errors: [401, 503],
      handler: async ({ body }) => runledger.router.receivePaymentEvent(body),
    }),
  ];
}
