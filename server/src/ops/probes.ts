import { createPublicKey, verify } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointSigner, Storage } from '@runledger/core/ports';
import type { ReadinessProbe } from './readiness.js';

/** A real query through the storage port: a read transaction that looks up one row. */
export function storageProbe(storage: Storage): ReadinessProbe {
  return {
    name: 'storage',
    check: async () => {
      await storage.read((tx) => tx.orgs.byId('org_readiness_probe'));
    },
  };
}

/** The receipt sink's folder takes a write: a probe file is written, synced and removed. */
export function receiptSinkProbe(dir: string): ReadinessProbe {
  let n = 0;
  return {
    name: 'receipt_sink',
    check: async () => {
      // A name per check, so concurrent checks never remove each other's file.
      const file = join(dir, `.readiness-probe-${process.pid}-${n++}`);
      const handle = await open(file, 'w');
      try {
        await handle.writeFile('ok\n');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await unlink(file);
    },
  };
}

/**
 * The checkpoint signing key signs: a fixed message is signed and the signature checked against the
 * published public key with node:crypto, so a key that cannot sign (or signs under another public
 * key) makes the instance not ready instead of serving checkpoints nobody can verify.
 */
export function signingKeyProbe(signer: CheckpointSigner): ReadinessProbe {
  const message = new TextEncoder().encode('runledger readiness probe');
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(signer.publicKey).toString('base64url') },
    format: 'jwk',
  });
  return {
    name: 'signing_key',
    check: async () => {
      if (!verify(null, message, publicKey, signer.sign(message))) {
        throw new Error('the signing key does not sign under its published public key');
      }
    },
  };
}
