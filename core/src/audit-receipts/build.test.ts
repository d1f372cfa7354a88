import { canonicalJson } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import type { AuditEvent } from '../schemas/audit-receipt.js';
import { buildAuditReceipt } from './build.js';
import { failureWindowOf } from './record.js';

const event: AuditEvent = {
  type: 'api_key.created',
  key_id: 'key_1',
  name: 'ci',
  prefix: 'rlk_key_1_',
};
const base = {
  orgId: 'org_a',
  actor: { kind: 'user' as const, id: 'usr_1' },
  event,
  now: new Date('2025-03-01T12:00:00.000Z'),
};

describe('buildAuditReceipt', () => {
  it('starts a chain at org_seq 0 under the genesis parent, and hashes the canonical payload', () => {
    const built = buildAuditReceipt({ ...base, head: null });
    expect(built.org_seq).toBe(0);
    expect(built.parent_hash).toBe('0'.repeat(64));
    expect(built.payload_text).toBe(canonicalJson(built.payload));
    expect(built.receipt_sha256).toBe(sha256Hex(built.payload_text));
    expect(built.receipt_id).toBe(`audit-000000-${built.receipt_sha256.slice(0, 8)}`);
    expect(built.payload).toEqual({
      v: 1,
      type: 'audit_receipt',
      org_id: 'org_a',
      org_seq: 0,
      parent_hash: '0'.repeat(64),
      minted_at: '2025-03-01T12:00:00.000Z',
      actor: { kind: 'user', id: 'usr_1' },
      event,
    });
  });

  it('links to the head: one past its org_seq, pointing at its hash', () => {
    const head = { org_seq: 6, receipt_sha256: 'ab'.repeat(32) };
    const built = buildAuditReceipt({ ...base, head });
    expect([built.org_seq, built.parent_hash]).toEqual([7, head.receipt_sha256]);
  });

  it('refuses an event with a field its schema does not document (a secret cannot slip in)', () => {
    const leaky = { ...event, key: 'rlk_key_1_secret' } as unknown as AuditEvent;
    expect(() => buildAuditReceipt({ ...base, head: null, event: leaky })).toThrow(RunledgerError);
  });

  it('puts a time in the 15-minute window that starts at or before it', () => {
    expect(failureWindowOf(new Date('2025-03-01T12:14:59.999Z'))).toBe('2025-03-01T12:00:00.000Z');
    expect(failureWindowOf(new Date('2025-03-01T12:15:00.000Z'))).toBe('2025-03-01T12:15:00.000Z');
  });
});
