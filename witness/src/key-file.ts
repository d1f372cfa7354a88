import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64Decode, base64Encode } from '@runledger/verify/note';
import { cosignerSigner, formatCosignerVkey, type CosignerSigner } from '@runledger/verify/witness';

/**
 * The witness's own key, in `DIR/witness-key` (mode 0600): `<name> <base64 of the 32-byte Ed25519
 * seed>`. Made once by `init`; never printed or logged, only its vkey is.
 */
const KEY_FILE = 'witness-key';

export function initWitnessKey(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, KEY_FILE);
  if (existsSync(file)) throw new Error(`${file} exists: this witness already has a key`);
  const seed = randomBytes(32);
  const signer = cosignerSigner(name, seed);
  writeFileSync(file, `${name} ${base64Encode(seed)}\n`, { mode: 0o600, flag: 'wx' });
  return formatCosignerVkey(signer.name, signer.publicKey);
}

export function loadWitnessKey(dir: string): CosignerSigner {
  const file = join(dir, KEY_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: run runledger-witness init first`, { cause: error });
  }
  const [name = '', b64 = ''] = text.trim().split(' ');
  const seed = base64Decode(b64);
  if (seed === null || seed.length !== 32) throw new Error(`${file} is not a witness key file`);
  return cosignerSigner(name, seed);
}
