import { randomBytes } from 'node:crypto';
import type { Random } from '@runledger/core/ports';

/** Bytes drawn from the CSPRNG at once: one call costs about 5 µs here whatever its size. */
const POOL_BYTES = 4096;

/**
 * The operating system's CSPRNG (OpenSSL's, seeded by it), drawn 4 KiB at a time and handed out in
 * copies, as node:crypto's own randomUUID does: ids and tokens cost a copy, not a call each.
 */
export function cryptoRandom(): Random {
  let pool = new Uint8Array(0);
  let used = 0;
  return {
    bytes: (length) => {
      if (length > POOL_BYTES) return new Uint8Array(randomBytes(length));
      if (used + length > pool.length) {
        pool = new Uint8Array(randomBytes(POOL_BYTES));
        used = 0;
      }
      const out = pool.slice(used, used + length);
      pool.fill(0, used, used + length);
      used += length;
      return out;
    },
  };
}
