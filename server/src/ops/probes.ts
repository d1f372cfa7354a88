import { createPublicKey, verify } from 'node:crypto';
import { open, statfs, unlink } from 'node:fs/promises';
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
 * Below this much free space on DATA_DIR's file system the instance says it is not ready: SQLite's
 * WAL, an upload's spool file and a day file's batch all need room before they can be acknowledged.
 */
export const DISK_SPACE_FLOOR_BYTES = 16 * 1024 * 1024;

/**
 * DATA_DIR's file system has room (statfs: the bytes an unprivileged writer may still use), so a
 * nearly full disk shows on /ready while its writes are answered 503, and clears by itself once
 * space is freed.
 */
export function diskSpaceProbe(dir: string, floorBytes = DISK_SPACE_FLOOR_BYTES): ReadinessProbe {
  return {
    name: 'disk_space',
    check: async () => {
      const { bavail, bsize } = await statfs(dir);
      const free = bavail * bsize;
      if (free < floorBytes) {
        throw new Error(
          `${free} bytes free on the data directory's file system, under ${floorBytes}`,
        );
      }
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
