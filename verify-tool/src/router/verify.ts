import { SHA256_HEX } from '../hash/sha256.js';
import { FIRST_PREV_CHECKSUM, routerReceiptChecksum } from './receipt.js';

export type RouterErrorCode =
  /** checksum_sha256 is not the SHA-256 of the canonical line without it. */
  | 'checksum_mismatch'
  /** prev_checksum_sha256 is not the previous line's checksum (64 zeros on line 1). */
  | 'chain_broken'
  /** seq is not the line's 1-based number in its file. */
  | 'seq_mismatch'
  /** The line is not a JSON object (or has no canonical form), or is blank between receipts. */
  | 'bad_line'
  /** A field is missing or malformed (amount not "0.00"-shaped, created_at not ISO UTC, ...). */
  | 'bad_field'
  /** The day file has no anchor beside it. */
  | 'anchor_missing'
  /** The anchor cannot be read as a signed note with a checkpoint-style body. */
  | 'bad_anchor'
  /** The file's line count or last checksum (or its name) differs from its anchor: cut, dropped or moved lines. */
  | 'anchor_mismatch'
  /** No supplied key valid at the anchor's time signed it. */
  | 'signature_invalid';

export interface RouterReceiptError {
  file: string;
  /** 1-based line number in the file. */
  line: number;
  receipt_id: string | null;
  code: RouterErrorCode;
  message: string;
}

export interface RouterVerifyResult {
  ok: boolean;
  files_checked: number;
  receipts_checked: number;
  errors: RouterReceiptError[];
  errors_omitted: number;
}

/** One file's result, with what its anchor is checked against. */
export interface RouterFileResult extends RouterVerifyResult {
  /** The last line's stored checksum_sha256; null for a file without receipts. */
  head_checksum_sha256: string | null;
}

export interface RouterVerifyOptions {
  /** Named in every finding. */
  fileName: string;
  maxErrors?: number;
}

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const AMOUNT = /^(0|[1-9]\d*)\.\d{2}$/;
const CURRENCY = /^[A-Z]{3}$/;

function fieldProblems(line: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of ['receipt_id', 'type'] as const) {
    if (typeof line[key] !== 'string' || line[key] === '')
      problems.push(`${key} must be a non-empty string`);
  }
  if (typeof line.created_at !== 'string' || !ISO_UTC_MS.test(line.created_at)) {
    problems.push('created_at must be ISO 8601 UTC with milliseconds');
  }
  if (!('subject' in line)) problems.push('subject is missing');
  if ('amount' in line && (typeof line.amount !== 'string' || !AMOUNT.test(line.amount))) {
    problems.push(
      `amount ${JSON.stringify(line.amount)} must be a string with 2 decimals, like "12.50"`,
    );
  }
  if ('currency' in line && (typeof line.currency !== 'string' || !CURRENCY.test(line.currency))) {
    problems.push(`currency ${JSON.stringify(line.currency)} must be a 3-letter code`);
  }
  if ('amount' in line !== 'currency' in line) problems.push('amount and currency go together');
  for (const key of ['prev_checksum_sha256', 'checksum_sha256'] as const) {
    const value = line[key];
    if (typeof value !== 'string' || !SHA256_HEX.test(value))
      problems.push(`${key} must be 64 lowercase hex`);
  }
  return problems;
}

/**
 * Verifies one router receipt file, streamed line by line. Each line's checksum must match,
 * prev_checksum_sha256 chains the lines of this file only (a new day starts from 64 zeros), and
 * `seq` is the line's 1-based number in the file: our decision, since a day file is the unit
 * the writer appends to, so a deleted or inserted line shows up as a seq_mismatch right there.
 * Blank lines at the end of the file are ignored; blank lines between receipts are bad_line.
 */
type Report = (line: number, receiptId: unknown, code: RouterErrorCode, message: string) => void;

/** A line as JSON with its recomputed checksum, or null (reported) when it has none. */
function parseLine(
  text: string,
  lineNo: number,
  report: Report,
): { line: Record<string, unknown>; computed: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    report(lineNo, null, 'bad_line', `line is not JSON: ${(error as Error).message}`);
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report(lineNo, null, 'bad_line', 'line is not a JSON object');
    return null;
  }
  const line = value as Record<string, unknown>;
  let computed: string;
  try {
    computed = routerReceiptChecksum(line);
  } catch (error) {
    report(
      lineNo,
      line.receipt_id,
      'bad_line',
      `line has no canonical form: ${(error as Error).message}`,
    );
    return null;
  }
  return { line, computed };
}

/** A line's fields, its checksum, its link to the line before (either of its checksums) and its seq. */
function checkLine(
  line: Record<string, unknown>,
  computed: string,
  previous: { stored: string; computed: string } | null,
  lineNo: number,
  report: Report,
): void {
  for (const problem of fieldProblems(line)) report(lineNo, line.receipt_id, 'bad_field', problem);
  if (line.checksum_sha256 !== computed) {
    report(lineNo, line.receipt_id, 'checksum_mismatch', `the line hashes to ${computed}`);
  }
  // Either checksum of the line before will do: a broken line is reported once, on itself.
  if (
    previous !== null &&
    line.prev_checksum_sha256 !== previous.stored &&
    line.prev_checksum_sha256 !== previous.computed
  ) {
    report(
      lineNo,
      line.receipt_id,
      'chain_broken',
      lineNo === 1
        ? 'the first line must have prev_checksum_sha256 of 64 zeros'
        : "prev_checksum_sha256 is not the previous line's checksum",
    );
  }
  if (line.seq !== lineNo) {
    report(
      lineNo,
      line.receipt_id,
      'seq_mismatch',
      `seq ${JSON.stringify(line.seq)} on line ${lineNo}`,
    );
  }
}

export async function verifyRouterReceiptLines(
  lines: AsyncIterable<string> | Iterable<string>,
  options: RouterVerifyOptions,
): Promise<RouterFileResult> {
  const maxErrors = options.maxErrors ?? 1000;
  const errors: RouterReceiptError[] = [];
  let omitted = 0;
  let lineNo = 0;
  let checked = 0;
  let head: string | null = null;
  let blankLines: number[] = [];
  // The previous line's stored and recomputed checksums; null after an unreadable line.
  let previous: { stored: string; computed: string } | null = {
    stored: FIRST_PREV_CHECKSUM,
    computed: FIRST_PREV_CHECKSUM,
  };

  const report: Report = (line, receiptId, code, message) => {
    const receipt_id = typeof receiptId === 'string' ? receiptId : null;
    if (errors.length < maxErrors)
      errors.push({ file: options.fileName, line, receipt_id, code, message });
    else omitted += 1;
  };

  for await (const text of lines) {
    lineNo += 1;
    if (text.trim() === '') {
      blankLines.push(lineNo);
      continue;
    }
    for (const blank of blankLines) report(blank, null, 'bad_line', 'blank line between receipts');
    blankLines = [];
    checked += 1;

    const parsed = parseLine(text, lineNo, report);
    if (parsed === null) {
      previous = null;
      continue;
    }
    const { line, computed } = parsed;
    checkLine(line, computed, previous, lineNo, report);
    previous = {
      stored: typeof line.checksum_sha256 === 'string' ? line.checksum_sha256 : computed,
      computed,
    };
    head = previous.stored;
  }

  return {
    ok: errors.length + omitted === 0,
    files_checked: 1,
    receipts_checked: checked,
    errors,
    errors_omitted: omitted,
    head_checksum_sha256: head,
  };
}

/** Adds up the results of several files. */
export function mergeRouterResults(results: readonly RouterVerifyResult[]): RouterVerifyResult {
  const merged: RouterVerifyResult = {
    ok: true,
    files_checked: 0,
    receipts_checked: 0,
    errors: [],
    errors_omitted: 0,
  };
  for (const result of results) {
    merged.ok &&= result.ok;
    merged.files_checked += result.files_checked;
    merged.receipts_checked += result.receipts_checked;
    merged.errors.push(...result.errors);
    merged.errors_omitted += result.errors_omitted;
  }
  return merged;
}
