import { ChainVerifier } from '../chain/verifier.js';
import type { ChainVerifyOptions, ChainVerifyResult } from '../chain/types.js';
import { VerifyError } from '../errors.js';
import { toHex } from '../hash/hex.js';
import { checkSignedCheckpoint, type Authorship } from '../ledger/signed-checkpoint.js';
import { ReceiptTree } from '../ledger/receipt-tree.js';
import type { TrustedKey } from '../note/keyring.js';
import type { ExportHeader } from './format.js';
import { isCompleteJson, parseExportHeader, parseExportLine } from './parse.js';

export interface ExportVerifyOptions extends Omit<ChainVerifyOptions, 'expectedHeadSha256'> {
  /** Called every `progressEvery` receipts (default 10,000) with the count so far. */
  onProgress?: (receiptsChecked: number) => void;
  progressEvery?: number;
  /** Keys to check the header's checkpoint signature with; without them authorship is not checked. */
  keys?: readonly TrustedKey[];
  /** Also report the Merkle root of the first this-many receipts (for consistency checks). */
  rootAtSize?: number;
}

export interface ExportVerifyResult extends ChainVerifyResult {
  header: ExportHeader;
  /** RFC 9162 root (hex) of the tree over the receipts' receipt_sha256, in order. */
  merkle_root: string;
  /** The header's checkpoint as read: size, root (hex), origin; null without one. */
  checkpoint: { origin: string; tree_size: number; root_hash: string } | null;
  authorship: Authorship;
  /** The root (hex) of the first `rootAtSize` receipts, when asked and the export has that many. */
  merkle_root_at_size?: string;
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
  const tree = new ReceiptTree();
  let rootAtSize = options.rootAtSize === 0 ? toHex(tree.root()) : undefined;
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
    tree.add(parsed.entry.receipt_sha256);
    if (tree.size === options.rootAtSize) rootAtSize = toHex(tree.root());
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
  const root = tree.root();
  let authorship: Authorship = {
    status: 'no_checkpoint',
    message: 'the export carries no checkpoint: authorship cannot be checked, only the hash chain',
  };
  let checkpoint: ExportVerifyResult['checkpoint'] = null;
  if (header.checkpoint !== undefined) {
    const checked = checkSignedCheckpoint(header.checkpoint, {
      originSuffix: `/orgs/${header.org_id}`,
      size: receiptLines,
      root,
      keys: options.keys,
      fallbackTime: header.exported_at,
    });
    for (const finding of checked.findings) {
      verifier.report({ receipt_id: null, org_seq: null, ...finding });
    }
    authorship = checked.authorship;
    if (checked.checkpoint !== null) {
      checkpoint = {
        origin: checked.checkpoint.origin,
        tree_size: checked.checkpoint.size,
        root_hash: toHex(checked.checkpoint.rootHash),
      };
    }
  }
  options.onProgress?.(verifier.receiptsChecked);
  return {
    ...verifier.result(),
    header,
    merkle_root: toHex(root),
    checkpoint,
    authorship,
    ...(rootAtSize === undefined ? {} : { merkle_root_at_size: rootAtSize }),
  };
}
