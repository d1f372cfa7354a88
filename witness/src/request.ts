import { base64Decode } from '@runledger/verify/note';

/**
 * The body of a C2SP tlog-witness `add-checkpoint` request: `old <size>`, zero to 63 consistency
 * proof lines (base64 SHA-256), an empty line, then the signed checkpoint note.
 */
export interface AddCheckpointRequest {
  oldSize: number;
  proof: Uint8Array[];
  note: string;
}

export const MAX_PROOF_LINES = 63;
const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** The request, or a message saying why it is malformed (answered 400). */
export function parseAddCheckpoint(body: string): AddCheckpointRequest | string {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return 'the request has no empty line before the checkpoint';
  const [oldLine = '', ...proofLines] = body.slice(0, blank).split('\n');
  const digits = oldLine.slice('old '.length);
  if (!oldLine.startsWith('old ') || !DECIMAL.test(digits) || !Number.isSafeInteger(Number(digits)))
    return 'the first line is not "old <size>"';
  if (proofLines.length > MAX_PROOF_LINES)
    return `more than ${MAX_PROOF_LINES} consistency proof lines`;
  const proof: Uint8Array[] = [];
  for (const line of proofLines) {
    const hash = base64Decode(line);
    if (hash === null || hash.length !== 32)
      return 'a consistency proof line is not a base64 SHA-256 hash';
    proof.push(hash);
  }
  return { oldSize: Number(digits), proof, note: body.slice(blank + 2) };
}
