import { createHmac } from 'node:crypto';
import { RunledgerError } from '@runledger/core';
import { constantTimeEqual } from '@runledger/core/adapter';

/** Signatures older (or further in the future) than this are refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `v1` of `X-Signature`: hex HMAC-SHA256 of `t + "." + raw body` under the shared secret. */
export function webhookSignature(secret: string, t: string, rawBody: Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/** `t=<unix seconds>,v1=<hex>`: the timestamp and every v1 (several while a secret is rotated). */
function parseHeader(header: string): { t: string; v1: string[] } | null {
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

const refuse = (message: string) => new RunledgerError('unauthenticated', message);

/**
 * Checks `X-Signature` over the exact bytes received, then the timestamp against `now`; throws
 * unauthenticated (401) on any failure. Each v1 is compared in constant time.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: Uint8Array,
  secret: string,
  now: Date,
): void {
  const parsed = header === undefined ? null : parseHeader(header);
  if (parsed === null) throw refuse('missing or malformed X-Signature (t=<unix>,v1=<hex>)');
  const expected = webhookSignature(secret, parsed.t, rawBody);
  // Every candidate is compared, so the timing does not show which one (if any) matched.
  const matched = parsed.v1.map((v) => constantTimeEqual(v, expected)).includes(true);
  if (!matched) throw refuse('X-Signature does not match the body');
  const age = Math.floor(now.getTime() / 1000) - Number(parsed.t);
  if (Math.abs(age) > SIGNATURE_TOLERANCE_SECONDS) {
    throw refuse(`X-Signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds off`);
  }
}
