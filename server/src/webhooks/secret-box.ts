import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '@runledger/core/adapter';

/**
 * Seals webhook signing secrets at rest with AES-256-GCM under a key derived (HKDF-SHA256) from
 * JWT_SECRET with its own label, so the database alone never yields a secret (docs/webhooks.md,
 * "Secrets"). Sealed form: `v1.` then base64url of nonce (12) ‖ ciphertext ‖ tag (16).
 */
export function secretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(
    hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'runledger webhook signing secrets v1', 32),
  );
  return {
    seal(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown sealed secret format');
      const bytes = Buffer.from(sealed.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(12, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
