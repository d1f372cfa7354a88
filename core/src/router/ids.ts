import { base32 } from '../ids.js';
import type { Random } from '../ports/random.js';

/** Router id tags: member, dataset, node, quote, job, worker, artifact, router receipt. */
export type RouterIdPrefix = 'mbr' | 'dst' | 'nod' | 'quo' | 'job' | 'wkr' | 'art' | 'rr';

/** A prefixed id of 128 random bits, e.g. `job_` and 26 base32 characters (the project's id format). */
export function routerId(prefix: RouterIdPrefix, random: Random): string {
  return `${prefix}_${base32(random.bytes(16))}`;
}

/** Plaintext tags of the two router secrets, so a leaked token is easy to recognise and scan for. */
export const WORKER_TOKEN_PREFIX = 'rlw_';
export const LEASE_TOKEN_PREFIX = 'rll_';
