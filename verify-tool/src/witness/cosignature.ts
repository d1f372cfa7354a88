import { base64Encode } from '../note/base64.js';
import { ed25519Impl } from '../note/ed25519.js';
import { NoteError } from '../note/errors.js';
import { parseNote } from '../note/note.js';
import type { CosignerKey, CosignerSigner } from './cosigner-key.js';

/**
 * C2SP tlog-cosignature, Ed25519 `cosignature/v1`. A cosignature is a note signature line
 * `— <witness name> base64(key id ‖ timestamped_signature)` where timestamped_signature is a
 * big-endian u64 POSIX timestamp then a 64-byte Ed25519 signature over
 * `cosignature/v1\ntime <timestamp>\n` followed by the checkpoint body (the note text).
 */

const SIG_PREFIX = '\u2014 ';
const MAX_TIMESTAMP = (1n << 63n) - 1n;
const encoder = new TextEncoder();

export interface VerifiedCosignature {
  name: string;
  keyId: number;
  /** Seconds since the epoch when the witness cosigned. */
  timestamp: number;
}

/** The bytes a cosignature/v1 signs for a checkpoint body `text` at `timestamp`. */
export function cosignedMessage(text: string, timestamp: number): Uint8Array {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new NoteError('malformed', 'a cosignature timestamp is a whole number of seconds ≥ 0');
  }
  return encoder.encode(`cosignature/v1\ntime ${timestamp}\n${text}`);
}

/** The signature line (with its newline) of `signer` cosigning checkpoint body `text`. */
export function cosignatureLine(text: string, signer: CosignerSigner, timestamp: number): string {
  const signature = signer.sign(cosignedMessage(text, timestamp));
  const bytes = new Uint8Array(4 + 8 + signature.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, signer.keyId);
  view.setBigUint64(4, BigInt(timestamp));
  bytes.set(signature, 12);
  return `${SIG_PREFIX}${signer.name} ${base64Encode(bytes)}\n`;
}

/**
 * The witnesses among `witnesses` whose cosignature on `note` verifies, once each. Lines from other
 * keys are ignored, as the specification requires; a line from a known witness that does not
 * verify is listed in `invalid` (by name) and not counted.
 */
export function verifyCosignatures(
  note: string | Uint8Array,
  witnesses: readonly CosignerKey[],
): { valid: VerifiedCosignature[]; invalid: string[] } {
  const { text, signatures } = parseNote(note);
  const valid: VerifiedCosignature[] = [];
  const invalid: string[] = [];
  for (const sig of signatures) {
    const key = witnesses.find((w) => w.name === sig.name && w.keyId === sig.keyId);
    if (key === undefined || valid.some((v) => v.name === key.name && v.keyId === key.keyId)) {
      continue;
    }
    const timestamp = timestampOf(sig.signature);
    const ok =
      timestamp !== null &&
      sig.signature.length === 8 + 64 &&
      ed25519Impl.verify(key.publicKey, cosignedMessage(text, timestamp), sig.signature.slice(8));
    if (ok) valid.push({ name: key.name, keyId: key.keyId, timestamp });
    else invalid.push(key.name);
  }
  return { valid, invalid: invalid.filter((n) => !valid.some((v) => v.name === n)) };
}

function timestampOf(signature: Uint8Array): number | null {
  if (signature.length < 8) return null;
  const value = new DataView(signature.buffer, signature.byteOffset).getBigUint64(0);
  return value > MAX_TIMESTAMP || value > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(value);
}
