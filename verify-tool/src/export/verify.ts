import { ChainVerifier } from '../chain/verifier.js';
import type { ChainVerifyOptions, ChainVerifyResult } from '../chain/types.js';
import { VerifyError } from '../errors.js';
import { toHex } from '../hash/hex.js';
import { checkSignedCheckpoint, type Authorship } from '../ledger/signed-checkpoint.js';
import { ReceiptTree, receiptLeafHash } from '../ledger/receipt-tree.js';
import { HASH_SIZE } from '../merkle/hash.js';
import type { TrustedKey } from '../note/keyring.js';
import type { WitnessCheck, WitnessPolicy } from '../witness/policy.js';
import { checkReceiptLine, isBlank, type BlockCheckOptions, type CheckedBlock } from './block.js';
import { exportOriginSuffix, type ExportHeader } from './format.js';
import type { ExportLine } from './line.js';
import { isCompleteJson, parseExportHeader } from './parse.js';

export type { ExportLine } from './line.js';

export interface ExportVerifyOptions extends Omit<ChainVerifyOptions, 'expectedHeadSha256'> {
  /** Called every `progressEvery` receipts (default 10,000) with the count so far. */
  onProgress?: (receiptsChecked: number) => void;
  progressEvery?: number;
  /** Keys to check the header's checkpoint signature with; without them authorship is not checked. */
  keys?: readonly TrustedKey[];
  /** Witnesses that must have cosigned the header's checkpoint. */
  witnesses?: WitnessPolicy;
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
  /** The witness policy's verdict on the header's checkpoint, when a policy was given. */
  witnessed?: WitnessCheck;
  /** The root (hex) of the first `rootAtSize` receipts, when asked and the export has that many. */
  merkle_root_at_size?: string;
}

/**
 * Verifies an NDJSON export pushed line by line (without newlines), in constant memory: the chain
 * verifier's state, the tree's right edge, one line of look-ahead. Findings about receipts land in
 * the result; an input that cannot be read as an export throws VerifyError: `bad_header` (empty
 * input, or the first line is not a header) or `truncated_input` (the last line is cut off, or
 * fewer receipt lines than the header's count). Blank lines are skipped; line numbers in findings
 * count every physical line, 1-based.
 */
export class ExportVerifier {
  readonly #options: ExportVerifyOptions;
  readonly #progressEvery: number;
  #header: ExportHeader | undefined;
  #chain: ChainVerifier | undefined;
  readonly #tree = new ReceiptTree();
  #rootAtSize: string | undefined;
  #lineNo = 0;
  #receiptLines = 0;
  // Only the last line can be a cut-off one, and it is checked more closely.
  #pending: { line: ExportLine; no: number } | undefined;

  constructor(options: ExportVerifyOptions = {}) {
    this.#options = options;
    this.#progressEvery = options.progressEvery ?? 10_000;
    if (options.rootAtSize === 0) this.#rootAtSize = toHex(this.#tree.root());
  }

  push(line: ExportLine): void {
    this.#lineNo += 1;
    if (this.#chain === undefined) {
      const header = parseExportHeader(line.text);
      this.#header = header;
      this.#chain = new ChainVerifier({
        ...this.#options,
        receiptPrefix: this.#options.receiptPrefix ?? header.receipt_prefix,
        expectedHeadSha256: header.head_sha256,
      });
      return;
    }
    if (isBlank(line.text)) return;
    if (this.#pending !== undefined) this.#check(this.#pending.line, this.#pending.no, this.#chain);
    this.#pending = { line, no: this.#lineNo };
  }

  #check(line: ExportLine, no: number, chain: ChainVerifier): void {
    this.#receiptLines += 1;
    const entry = checkReceiptLine(line, no, chain, this.#options.strict === true);
    if (entry === undefined) return;
    this.#addLeaf(receiptLeafHash(entry.receipt_sha256));
    this.#progressAt(chain.receiptsChecked);
  }

  #addLeaf(leafHash: Uint8Array): void {
    this.#tree.addLeafHash(leafHash);
    if (this.#tree.size === this.#options.rootAtSize) this.#rootAtSize = toHex(this.#tree.root());
  }

  #progressAt(checked: number): void {
    if (this.#options.onProgress !== undefined && checked % this.#progressEvery === 0) {
      this.#options.onProgress(checked);
    }
  }

  /**
   * What a BlockChecker needs to check receipt lines elsewhere (a worker thread) exactly as this
   * verifier would; undefined before the header.
   */
  blockOptions(): BlockCheckOptions | undefined {
    const header = this.#header;
    if (header === undefined) return undefined;
    const options: BlockCheckOptions = {
      expectedOrgId: this.#options.expectedOrgId ?? header.org_id,
    };
    const prefix = this.#options.receiptPrefix ?? header.receipt_prefix;
    if (prefix !== undefined) options.receiptPrefix = prefix;
    if (this.#options.strict === true) options.strict = true;
    return options;
  }

  /**
   * Takes the lines a BlockChecker checked (the lines that come next) as if they were pushed
   * here, when that gives the same result: the block is clean, its first receipt links to the
   * last one here and its org is this export's. Returns false otherwise, having changed nothing
   * the caller's pushing those lines one by one would not; the caller then does so.
   */
  pushCheckedBlock(block: CheckedBlock): boolean {
    const chain = this.#chain;
    if (chain === undefined || !block.clean) return false;
    if (block.receiptLines === 0) {
      this.#lineNo += block.physicalLines;
      return true;
    }
    // A cut-off last line must stay pending for finish(): let the caller push it.
    if (!block.lastComplete) return false;
    const pending = this.#pending;
    if (pending !== undefined) {
      // The block holds a receipt line, so the pending one is not the last: check it now.
      this.#pending = undefined;
      this.#check(pending.line, pending.no, chain);
    }
    const before = chain.receiptsChecked;
    if (!chain.pushVerifiedRun(block.run)) return false;
    for (let i = 0; i < block.run.count; i += 1) {
      this.#addLeaf(block.leafHashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
      this.#progressAt(before + i + 1);
    }
    this.#receiptLines += block.receiptLines;
    this.#lineNo += block.physicalLines;
    return true;
  }

  /** The receipts that followed against the header's count and organization. */
  #checkCounts(header: ExportHeader, verifier: ChainVerifier, receiptLines: number): void {
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
  }

  finish(): ExportVerifyResult {
    const header = this.#header;
    const verifier = this.#chain;
    if (header === undefined || verifier === undefined) {
      throw new VerifyError('bad_header', 'the input is empty: no export header');
    }
    const pending = this.#pending;
    if (pending !== undefined) {
      if (!isCompleteJson(pending.line.text)) {
        throw new VerifyError(
          'truncated_input',
          `line ${pending.no} is cut off: the export is truncated`,
        );
      }
      this.#pending = undefined;
      this.#check(pending.line, pending.no, verifier);
    }
    const receiptLines = this.#receiptLines;
    this.#checkCounts(header, verifier, receiptLines);
    const root = this.#tree.root();
    let authorship: Authorship = {
      status: 'no_checkpoint',
      message:
        'the export carries no checkpoint: authorship cannot be checked, only the hash chain',
    };
    let checkpoint: ExportVerifyResult['checkpoint'] = null;
    let witnessed: WitnessCheck | undefined;
    if (header.checkpoint !== undefined) {
      const checked = checkSignedCheckpoint(header.checkpoint, {
        originSuffix: exportOriginSuffix(header),
        size: receiptLines,
        root,
        keys: this.#options.keys,
        fallbackTime: header.exported_at,
        witnesses: this.#options.witnesses,
      });
      witnessed = checked.witnessed;
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
    this.#options.onProgress?.(verifier.receiptsChecked);
    return {
      ...verifier.result(),
      header,
      merkle_root: toHex(root),
      checkpoint,
      authorship,
      ...(witnessed === undefined ? {} : { witnessed }),
      ...(this.#rootAtSize === undefined ? {} : { merkle_root_at_size: this.#rootAtSize }),
    };
  }
}

/** Verifies an export given as lines (see ExportVerifier). */
export async function verifyExportLines(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ExportVerifyOptions = {},
): Promise<ExportVerifyResult> {
  const verifier = new ExportVerifier(options);
  for await (const text of lines) verifier.push({ text });
  return verifier.finish();
}
