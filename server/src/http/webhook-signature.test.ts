import { RunledgerError } from '@runledger/core';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature, webhookSignature } from './webhook-signature.js';

const SECRET = 'whsec_test';
const BODY = new TextEncoder().encode('{"id":"evt_1"}');
const T = '1700000000';
// From: printf '%s' '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test -hex
const KNOWN = 'c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925';
const AT_T = new Date(Number(T) * 1000);

function refusal(header: string | undefined, body = BODY, now = AT_T): string | null {
  try {
    verifyWebhookSignature(header, body, SECRET, now);
    return null;
  } catch (error) {
    if (error instanceof RunledgerError && error.code === 'unauthenticated') return error.message;
    throw error;
  }
}

describe('payment webhook signature', () => {
  it('matches the HMAC-SHA256 that openssl computes', () => {
    expect(webhookSignature(SECRET, T, BODY)).toBe(KNOWN);
  });

  it('accepts the right signature, in upper case too, and among several v1 values', () => {
    expect(refusal(`t=${T},v1=${KNOWN}`)).toBeNull();
    expect(refusal(`t=${T}, v1=${KNOWN.toUpperCase()}`)).toBeNull();
    expect(refusal(`t=${T},v1=${'0'.repeat(64)},v1=${KNOWN}`)).toBeNull();
  });

  it('refuses a missing or malformed header', () => {
    for (const header of [
      undefined,
      '',
      `v1=${KNOWN}`,
      `t=${T}`,
      `t=abc,v1=${KNOWN}`,
      `t=${T},v1=${KNOWN.slice(1)}`,
      `t=${T},t=${T},v1=${KNOWN}`,
      `t=${T};v1=${KNOWN}`,
    ]) {
      expect([header, refusal(header)]).toEqual([header, expect.stringMatching(/malformed/)]);
    }
  });

  it('refuses a changed body, a changed timestamp and another secret', () => {
    const tampered = new TextEncoder().encode('{"id":"evt_2"}');
    expect(refusal(`t=${T},v1=${KNOWN}`, tampered)).toMatch(/does not match/);
    expect(refusal(`t=1700000001,v1=${KNOWN}`)).toMatch(/does not match/);
    const other = webhookSignature('another', T, BODY);
    expect(refusal(`t=${T},v1=${other}`)).toMatch(/does not match/);
  });

  it('accepts up to 300 seconds of skew either way and refuses more', () => {
    const at = (s: number) => new Date(AT_T.getTime() + s * 1000);
    const header = `t=${T},v1=${KNOWN}`;
    expect(refusal(header, BODY, at(300))).toBeNull();
    expect(refusal(header, BODY, at(-300))).toBeNull();
    expect(refusal(header, BODY, at(301))).toMatch(/300 seconds/);
    expect(refusal(header, BODY, at(-301))).toMatch(/300 seconds/);
  });
});
