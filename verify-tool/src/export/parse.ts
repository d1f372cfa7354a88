import { canonicalJson } from '../canonical/json.js';
import type { LedgerEntryInput } from '../chain/types.js';
import { VerifyError } from '../errors.js';
import { SHA256_HEX } from '../hash/sha256.js';
import { EXPORT_FORMAT, type ExportHeader } from './format.js';

export const PAYLOAD_KEY = ',"payload":';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the header line; anything else than a valid header means the input is not an export. */
export function parseExportHeader(line: string): ExportHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new VerifyError('bad_header', 'the first line is not JSON: not a runledger export');
  }
  if (!isPlainObject(value) || value.format !== EXPORT_FORMAT) {
    throw new VerifyError('bad_header', `the first line is not a ${EXPORT_FORMAT} header`);
  }
  const { org_id, exported_at, count, head_sha256, receipt_prefix, checkpoint, log } = value;
  if (typeof org_id !== 'string' || typeof exported_at !== 'string') {
    throw new VerifyError('bad_header', 'header org_id and exported_at must be strings');
  }
  if (!Number.isSafeInteger(count) || (count as number) < 0) {
    throw new VerifyError('bad_header', 'header count must be a non-negative integer');
  }
  if (typeof head_sha256 !== 'string' || !SHA256_HEX.test(head_sha256)) {
    throw new VerifyError('bad_header', 'header head_sha256 must be 64 lowercase hex');
  }
  if (receipt_prefix !== undefined && typeof receipt_prefix !== 'string') {
    throw new VerifyError('bad_header', 'header receipt_prefix must be a string');
  }
  if (checkpoint !== undefined && typeof checkpoint !== 'string') {
    throw new VerifyError('bad_header', 'header checkpoint must be a string (a signed note)');
  }
  if (log !== undefined && (typeof log !== 'string' || !/^[a-z][a-z0-9_-]{0,31}$/.test(log))) {
    throw new VerifyError('bad_header', 'header log must be a short lowercase log name');
  }
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    org_id,
    exported_at,
    count: count as number,
    head_sha256,
  };
  if (receipt_prefix !== undefined) header.receipt_prefix = receipt_prefix;
  if (checkpoint !== undefined) header.checkpoint = checkpoint;
  if (log !== undefined) header.log = log;
  return header;
}

export type ParsedExportLine =
  | { ok: true; entry: LedgerEntryInput; layout: 'export' | 'reserialized' }
  | { ok: false; message: string };

function toEntry(fields: Record<string, unknown>, payloadText: string): LedgerEntryInput {
  // Types are checked by the chain verifier, which reports them against the receipt.
  return {
    receipt_id: fields.receipt_id as string,
    org_seq: fields.org_seq as number,
    parent_hash: fields.parent_hash as string,
    receipt_sha256: fields.receipt_sha256 as string,
    created_at: fields.created_at as string,
    payload_text: payloadText,
  };
}

/**
 * Splits a receipt line into its fields and the payload's raw text.
 *
 * Fast path (every line formatExportLine wrote): the payload is the last key, so its text is the
 * slice between `,"payload":` and the final `}`; only the short part before it is parsed here and
 * the chain verifier hashes the slice as is. The first `,"payload":` is the right one: it cannot
 * occur inside a JSON string (quotes are escaped there), and if it sits inside a nested value the
 * part before it does not parse and the line takes the slow path.
 * Slow path (a line re-serialized by some other tool): parse the whole line and hash the payload's
 * canonical form, which is what receipt_sha256 is defined over.
 */
export function parseExportLine(line: string): ParsedExportLine {
  const text = line.trimEnd();
  const at = text.indexOf(PAYLOAD_KEY);
  if (at > 0 && text.endsWith('}')) {
    let fields: unknown;
    try {
      fields = JSON.parse(text.slice(0, at) + '}');
    } catch {
      fields = undefined;
    }
    if (isPlainObject(fields) && !('payload' in fields)) {
      return {
        ok: true,
        entry: toEntry(fields, text.slice(at + PAYLOAD_KEY.length, -1)),
        layout: 'export',
      };
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `line is not JSON: ${(error as Error).message}` };
  }
  if (!isPlainObject(value) || !('payload' in value)) {
    return { ok: false, message: 'line is not a receipt object with a payload' };
  }
  let payloadText: string;
  try {
    payloadText = canonicalJson(value.payload);
  } catch (error) {
    return { ok: false, message: `payload has no canonical form: ${(error as Error).message}` };
  }
  return { ok: true, entry: toEntry(value, payloadText), layout: 'reserialized' };
}

/** True when the text is one complete JSON value (used to tell a cut-off last line from a bad one). */
export function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
