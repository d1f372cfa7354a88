import { readFileSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { formatVkey, noteSigner, parseVkey, publishedKey } from '@runledger/verify/note';

/** verify-tool's own known-answer files: a Go-signed export and its tree, proofs and key. */
const VECTORS = fileURLToPath(new URL('../../verify-tool/vectors/', import.meta.url));

interface MerkleVector {
  key: { name: string; vkey: string };
  inclusion: { leaf_index: number; tree_size: number; hashes: string[] }[];
  signed_checkpoint: string;
}

export const merkleVector = JSON.parse(
  readFileSync(`${VECTORS}merkle-checkpoint.json`, 'utf8'),
) as MerkleVector;

/** The signed 3-receipt export (org_kat) as text. */
export const signedExport = readFileSync(`${VECTORS}chain-3-signed.ndjson`, 'utf8');

/** The vkey that signed it, and the same key as a keys document. */
export const katVkey = merkleVector.key.vkey;
export const katKeysDocument = JSON.stringify({
  keys: [publishedKey(parseVkey(katVkey), '2025-01-01T00:00:00.000Z')],
});

/** A well-formed key of someone else. */
const stranger = noteSigner('kat.runledger.example', new Uint8Array(32).fill(7));
export const strangerVkey = formatVkey(stranger.name, stranger.publicKey);

/** A share JSON for receipt `seq` of the signed export: the receipt, the checkpoint, the proof. */
export function signedShare(seq: number): Record<string, unknown> {
  const line = signedExport.trimEnd().split('\n')[seq + 1]!;
  const { receipt_id, org_seq, receipt_sha256, payload } = JSON.parse(line) as Record<
    string,
    unknown
  >;
  return {
    receipt: { receipt_id, org_seq, receipt_sha256, payload },
    checkpoint: merkleVector.signed_checkpoint,
    inclusion_proof: merkleVector.inclusion[seq],
  };
}

/** An export with its last line cut in half: what an interrupted download leaves. */
export function truncate(exportText: string): string {
  const lines = exportText.trimEnd().split('\n');
  const last = lines.pop()!;
  return [...lines, last.slice(0, Math.floor(last.length / 2))].join('\n');
}

/** An export whose receipt on `lineNo` (1-based) says something else than what was hashed. */
export function tamper(exportText: string, lineNo: number, from: string, to: string): string {
  const lines = exportText.split('\n');
  const line = lines[lineNo - 1]!;
  if (!line.includes(from)) throw new Error(`line ${lineNo} has no ${from}`);
  lines[lineNo - 1] = line.replace(from, to);
  return lines.join('\n');
}

/**
 * A receipt PDF whose embedded share.json says something else: the stream is inflated, edited,
 * deflated again and put back with its new /Length (the cross-reference offsets are left stale,
 * as a careless editor would).
 */
export function tamperPdfBundle(pdf: Uint8Array, edit: (json: string) => string): Buffer {
  const text = Buffer.from(pdf).toString('latin1');
  const object = text.indexOf('/Type /EmbeddedFile');
  const streamAt = text.indexOf('stream\n', object) + 'stream\n'.length;
  const length = /\/Length (\d+)/.exec(text.slice(object, streamAt));
  if (object === -1 || length === null) throw new Error('the PDF has no embedded file');
  const lengthAt = object + length.index;
  const json = inflateSync(pdf.subarray(streamAt, streamAt + Number(length[1]))).toString('utf8');
  const edited = edit(json);
  if (edited === json) throw new Error('the edit changed nothing');
  const data = deflateSync(Buffer.from(edited, 'utf8'));
  return Buffer.concat([
    Buffer.from(text.slice(0, lengthAt), 'latin1'),
    Buffer.from(`/Length ${data.length}`, 'latin1'),
    Buffer.from(text.slice(lengthAt + length[0].length, streamAt), 'latin1'),
    data,
    Buffer.from(pdf.subarray(streamAt + Number(length[1]))),
  ]);
}
