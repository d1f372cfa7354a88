import { base64Decode, base64Encode } from './base64.js';
import { ed25519Impl } from './ed25519.js';
import { NoteError } from './errors.js';
import { isValidKeyName, type NoteSigner, type NoteVerifier } from './keys.js';

/**
 * C2SP signed notes: text ending in a newline, a blank line, then one line per signature,
 * `— <key name> base64(4-byte key id ‖ Ed25519 signature)` (— is U+2014). The signature covers the
 * text only, final newline included. Opening follows golang.org/x/mod/sumdb/note: at most 100
 * signature lines, unknown keys ignored, a trusted key's bad signature refuses the whole note.
 */

const SIG_PREFIX = '\u2014 ';
const MAX_SIGNATURES = 100;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export interface SignatureLine {
  name: string;
  keyId: number;
  /** The bytes after the key id: the Ed25519 signature for keys this package knows. */
  signature: Uint8Array;
}

export interface OpenedNote {
  /** The signed text, up to and including the newline before the signatures' blank line. */
  text: string;
  /** The trusted keys whose signatures verified, in line order. */
  verified: NoteVerifier[];
  /** Signature lines from keys not trusted here, each distinct line once, in line order. */
  unverified: SignatureLine[];
}

/** Signs `text` (which must end in a newline) with each signer; returns the whole note. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (!text.endsWith('\n')) throw new NoteError('malformed', 'note text must end with a newline');
  if (text.includes('\n\n') || hasControl(text)) {
    throw new NoteError('malformed', 'note text must have no blank line and no control character');
  }
  const message = encoder.encode(text);
  return (
    text +
    '\n' +
    signers
      .map((s) => `${SIG_PREFIX}${s.name} ${base64Encode(withKeyId(s.keyId, s.sign(message)))}\n`)
      .join('')
  );
}

function withKeyId(keyId: number, signature: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + signature.length);
  new DataView(out.buffer).setUint32(0, keyId);
  out.set(signature, 4);
  return out;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a) return true;
  }
  return false;
}

/** Splits a note into its text and signature lines, without checking any signature. */
export function parseNote(note: string | Uint8Array): {
  text: string;
  signatures: SignatureLine[];
  lines: string[];
} {
  let whole: string;
  if (typeof note === 'string') whole = note;
  else {
    try {
      whole = decoder.decode(note);
    } catch {
      throw new NoteError('malformed', 'the note is not valid UTF-8');
    }
  }
  if (hasControl(whole)) throw new NoteError('malformed', 'the note has a control character');
  const split = whole.lastIndexOf('\n\n');
  if (split < 0)
    throw new NoteError('malformed', 'the note has no blank line before its signatures');
  const text = whole.slice(0, split + 1);
  const block = whole.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) {
    throw new NoteError('malformed', 'the signature block is empty or does not end with a newline');
  }
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES)
    throw new NoteError('malformed', `more than ${MAX_SIGNATURES} signatures`);
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIG_PREFIX))
      throw new NoteError('malformed', 'a signature line does not start with "— "');
    const rest = line.slice(SIG_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const bytes = space < 0 ? null : base64Decode(rest.slice(space + 1));
    if (!isValidKeyName(name) || bytes === null || bytes.length < 5) {
      throw new NoteError('malformed', 'a signature line is not "— <name> <base64>"');
    }
    const keyId = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
    return { name, keyId, signature: bytes.slice(4) };
  });
  return { text, signatures, lines };
}

/**
 * Opens a signed note against trusted verifiers: returns its text and who signed it, or throws
 * NoteError (`malformed`, `invalid_signature`, `no_verified_signature`).
 */
export function openNote(note: string | Uint8Array, trusted: readonly NoteVerifier[]): OpenedNote {
  const { text, signatures, lines } = parseNote(note);
  const message = encoder.encode(text);
  const verified: NoteVerifier[] = [];
  const unverified: SignatureLine[] = [];
  const seen = new Set<string>();
  signatures.forEach((sig, i) => {
    const key = trusted.find((k) => k.name === sig.name && k.keyId === sig.keyId);
    const id = key === undefined ? `line:${lines[i]}` : `key:${sig.name}+${sig.keyId}`;
    if (seen.has(id)) return;
    seen.add(id);
    if (key === undefined) {
      unverified.push(sig);
      return;
    }
    if (!ed25519Impl.verify(key.publicKey, message, sig.signature)) {
      throw new NoteError('invalid_signature', `the signature of ${sig.name} does not verify`);
    }
    verified.push(key);
  });
  if (verified.length === 0) {
    throw new NoteError('no_verified_signature', 'no trusted key signed this note');
  }
  return { text, verified, unverified };
}
