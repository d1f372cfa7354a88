import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { secretBox } from './secret-box.js';
import { signature, webhookHeaders } from './sign.js';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('the secret box', () => {
  const box = secretBox('a-server-secret-of-at-least-32-characters');

  it('opens what it sealed, and the sealed form never contains the secret', () => {
    const sealed = box.seal(SECRET);
    expect(sealed).not.toContain(SECRET.slice(6, 30));
    expect(box.open(sealed)).toBe(SECRET);
    expect(box.seal(SECRET)).not.toBe(sealed);
  });

  it('refuses a tampered byte and another server secret', () => {
    const sealed = box.seal(SECRET);
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[20]! ^= 1;
    expect(() => box.open(`v1.${bytes.toString('base64url')}`)).toThrow();
    expect(() => secretBox('another-server-secret-of-32-characters!').open(sealed)).toThrow();
  });
});

describe('Standard Webhooks signatures', () => {
  it('match the standardwebhooks package for the same id, timestamp and body', () => {
    const at = new Date('2026-03-01T12:00:00Z');
    const body = '{"type":"webhook.test"}';
    const theirs = new Webhook(SECRET).sign('msg_1', at, body);
    expect(signature(SECRET, 'msg_1', at.getTime() / 1000, body)).toBe(theirs);
  });

  it('puts one signature per secret in the header, space-separated', () => {
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const headers = webhookHeaders([SECRET, other], 'msg_1', 1, '{}');
    expect(headers['webhook-signature']?.split(' ')).toEqual([
      signature(SECRET, 'msg_1', 1, '{}'),
      signature(other, 'msg_1', 1, '{}'),
    ]);
  });
});
