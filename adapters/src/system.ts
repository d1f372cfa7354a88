import { randomBytes } from 'node:crypto';
import type { Clock, Random } from '@runledger/core/ports';

export function systemClock(): Clock {
  return { now: () => new Date() };
}

/** The operating system's CSPRNG. */
export function cryptoRandom(): Random {
  return { bytes: (length) => new Uint8Array(randomBytes(length)) };
}
