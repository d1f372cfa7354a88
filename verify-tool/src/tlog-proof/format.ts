import { HASH_SIZE } from '../merkle/hash.js';
import { base64Decode, base64Encode } from '../note/base64.js';
import { NoteError } from '../note/errors.js';

/**
 * C2SP tlog-proof (`c2sp.org/tlog-proof@v1`): one text file holding an entry's index, its RFC 6962
 * inclusion proof and the (cosigned) checkpoint it leads to, with optional `extra` data. For a
 * runledger receipt `extra` is the receipt's SHA-256 (the leaf's data), so the file alone is
 * checkable. Files are stored with the extension `.tlog-proof`.
 */

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProof {
  /** Opaque extra data (unauthenticated), or null when the file has no `extra` line. */
  extra: Uint8Array | null;
  index: number;
  /** The inclusion proof, from the leaf's sibling up to the root's child. */
  hashes: Uint8Array[];
  /** The checkpoint as a signed note, verbatim. */
  checkpoint: string;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

export function formatTlogProof(proof: TlogProof): string {
  if (!proof.checkpoint.endsWith('\n'))
    throw new NoteError('malformed', 'the checkpoint note must end with a newline');
  const lines = [TLOG_PROOF_HEADER];
  if (proof.extra !== null) lines.push(`extra ${base64Encode(proof.extra)}`);
  lines.push(`index ${proof.index}`, ...proof.hashes.map(base64Encode), '');
  return lines.join('\n') + '\n' + proof.checkpoint;
}

/** Parses a tlog-proof file; throws NoteError `malformed` naming the first fault. */
export function parseTlogProof(text: string): TlogProof {
  const blank = text.indexOf('\n\n');
  if (blank < 0)
    throw new NoteError('malformed', 'a tlog-proof has an empty line before its checkpoint');
  const lines = text.slice(0, blank).split('\n');
  const checkpoint = text.slice(blank + 2);
  if (lines[0] !== TLOG_PROOF_HEADER) {
    throw new NoteError('malformed', `a tlog-proof starts with the line ${TLOG_PROOF_HEADER}`);
  }
  let at = 1;
  let extra: Uint8Array | null = null;
  if (lines[at]?.startsWith('extra ') === true) {
    extra = base64Decode(lines[at]!.slice('extra '.length));
    if (extra === null) throw new NoteError('malformed', 'the extra line is not base64');
    at += 1;
  }
  const indexLine = lines[at] ?? '';
  const digits = indexLine.slice('index '.length);
  if (
    !indexLine.startsWith('index ') ||
    !DECIMAL.test(digits) ||
    !Number.isSafeInteger(Number(digits))
  ) {
    throw new NoteError('malformed', 'the index line is not "index <decimal>"');
  }
  const hashes = lines.slice(at + 1).map((line) => {
    const hash = base64Decode(line);
    if (hash === null || hash.length !== HASH_SIZE) {
      throw new NoteError('malformed', 'an inclusion proof line is not a base64 SHA-256 hash');
    }
    return hash;
  });
  if (hashes.length > 63) throw new NoteError('malformed', 'more than 63 inclusion proof hashes');
  return { extra, index: Number(digits), hashes, checkpoint };
}
