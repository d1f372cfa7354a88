import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures: `v1,` and the base64 HMAC-SHA256, keyed by the secret's bytes (the
 * base64 after `whsec_`), over `{webhook-id}.{webhook-timestamp}.{body}`. Several secrets give
 * several signatures, space-separated in one `webhook-signature` header.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
