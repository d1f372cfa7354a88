import { ChainVerifier } from '../chain/verifier.js';
import type { ChainVerifyOptions, ChainVerifyResult } from '../chain/types.js';
import { VerifyError } from '../errors.js';
import type { ExportHeader } from './format.js';
import { isCompleteJson, parseExportHeader, parseExportLine } from './parse.js';

export interface ExportVerifyOptions extends Omit<ChainVerifyOptions, 'expectedHeadSha256'> {
  /** Called every `progressEvery` receipts (default 10,000) with the count so far. */
  onProgress?: (receiptsChecked: number) => void;
  progressEvery?: number;
}

export interface ExportVerifyResult extends ChainVerifyResult {
  header: ExportHeader;
}

/**
 * Verifies an NDJSON export streamed line by line (lines without their newlines), in constant
 * memory. Findings about receipts land in the result; an input that cannot be read as an export
 * throws VerifyError: `bad_header` (empty input, or the first line is not a header) or
 * `truncated_input` (the last line is cut off, or fewer receipt lines than the header's count).
 * Blank lines are skipped; line numbers in findings count every physical line, 1-based.
 */
export async function verifyExportLines(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ExportVerifyOptions = {},
): Promise<ExportVerifyResult> {
  const progressEvery = options.progressEvery ?? 10_000;
  let header: ExportHeader | undefined;
  let verifier: ChainVerifier | undefined;
  let lineNo = 0;
  let receiptLines = 0;
  // One line of look-ahead: only the last line can be a cut-off one, and it is checked more closely.
  let pending: { text: string; line: number } | undefined;

  const check = (text: string, line: number, chain: ChainVerifier): void => {
    receiptLines += 1;
    const parsed = parseExportLine(text);
    if (!parsed.ok) {
      chain.report({
        receipt_id: null,
        org_seq: null,
        code: 'bad_line',
        message: parsed.message,
        line,
      });
      return;
    }
    if (parsed.layout === 'reserialized' && options.strict === true) {
      chain.report({
        receipt_id: typeof parsed.entry.receipt_id === 'string' ? parsed.entry.receipt_id : null,
        org_seq: Number.isSafeInteger(parsed.entry.org_seq) ? parsed.entry.org_seq : null,
        code: 'not_canonical',
        message: 'line is not in the export layout (payload as the last key, canonical bytes)',
        line,
      });
    }
    chain.push(parsed.entry, line);
    if (options.onProgress !== undefined && chain.receiptsChecked % progressEvery === 0) {
      options.onProgress(chain.receiptsChecked);
    }
  };

  for await (const text of lines) {
    lineNo += 1;
    if (verifier === undefined) {
      header = parseExportHeader(text);
      verifier = new ChainVerifier({
        ...options,
        receiptPrefix: options.receiptPrefix ?? header.receipt_prefix,
        expectedHeadSha256: header.head_sha256,
      });
      continue;
    }
    if (text.trim() === '') continue;
    if (pending !== undefined) check(pending.text, pending.line, verifier);
    pending = { text, line: lineNo };
  }

  if (header === undefined || verifier === undefined) {
    throw new VerifyError('bad_header', 'the input is empty: no export header');
  }
  if (pending !== undefined) {
    if (!isCompleteJson(pending.text)) {
      throw new VerifyError(
        'truncated_input',
        `line ${pending.line} is cut off: the export is truncated`,
      );
    }
    check(pending.text, pending.line, verifier);
  }
  if (receiptLines < header.count) {
    throw new VerifyError(
      'truncated_input',
      `the header announces ${header.count} receipts but only ${receiptLines} follow: the export is truncated`,
    );
  }
  if (receiptLines > header.count) {
    verifier.report({
      receipt_id: null,
      org_seq: null,
      code: 'count_mismatch',
      message: `the header announces ${header.count} receipts but ${receiptLines} follow`,
    });
  }
  const orgId = verifier.orgId;
  if (orgId !== undefined && orgId !== header.org_id) {
    verifier.report({
      receipt_id: null,
      org_seq: null,
      code: 'header_mismatch',
      message: `the header's org_id ${header.org_id} is not the receipts' org ${orgId}`,
    });
  }
  options.onProgress?.(verifier.receiptsChecked);
  return { ...verifier.result(), header };
}
