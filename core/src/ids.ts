import type { Random } from './ports/random.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, unpadded: 16 bytes give 26 characters and never an underscore. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export type IdPrefix =
  | 'usr'
  | 'org'
  | 'prj'
  | 'inv'
  | 'lnk'
  | 'key'
  | 'fs'
  | 'run'
  | 'evd'
  | 'chk'
  | 'vrd'
  | 'tsk'
  | 'inc'
  | 'whk';

/** A prefixed id of 128 random bits, e.g. `prj_` followed by 26 base32 characters. */
export function newId(prefix: IdPrefix, random: Random): string {
  return `${prefix}_${base32(random.bytes(16))}`;
}

export const ID_BODY = /^[a-z2-7]{26}$/;
