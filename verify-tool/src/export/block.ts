import type { LedgerEntryInput } from '../chain/types.js';
import { ChainVerifier, type VerifiedRun } from '../chain/verifier.js';
import { receiptLeafHash } from '../ledger/receipt-tree.js';
import { HASH_SIZE } from '../merkle/hash.js';
import type { ExportLine } from './line.js';
import { isCompleteJson, parseExportLine } from './parse.js';

export function isBlank(text: string): boolean {
  return text.length === 0 || text.trim() === '';
}

/**
 * Checks one receipt line against the chain: a `bad_line` finding when it is not a receipt, a
 * `not_canonical` one in strict mode when it is not in the export layout. Returns the entry, or
 * undefined for a bad line (which takes no place in the tree).
 */
export function checkReceiptLine(
  line: ExportLine,
  no: number,
  chain: ChainVerifier,
  strict: boolean,
): LedgerEntryInput | undefined {
  const parsed = parseExportLine(line.text);
  if (!parsed.ok) {
    chain.report({
      receipt_id: null,
      org_seq: null,
      code: 'bad_line',
      message: parsed.message,
      line: no,
    });
    return undefined;
  }
  if (parsed.layout === 'reserialized' && strict) {
    chain.report({
      receipt_id: typeof parsed.entry.receipt_id === 'string' ? parsed.entry.receipt_id : null,
      org_seq: Number.isSafeInteger(parsed.entry.org_seq) ? parsed.entry.org_seq : null,
      code: 'not_canonical',
      message: 'line is not in the export layout (payload as the last key, canonical bytes)',
      line: no,
    });
  }
  // The entry is this call's own object: give it the payload hash in place rather than copy it.
  if (parsed.layout === 'export' && line.payloadSha256 !== undefined) {
    parsed.entry.payload_sha256 = line.payloadSha256;
  }
  chain.push(parsed.entry, no);
  return parsed.entry;
}

/** What an ExportVerifier tells a BlockChecker (see ExportVerifier.blockOptions). */
export interface BlockCheckOptions {
  strict?: boolean;
  receiptPrefix?: string;
  /** Every payload's org_id must be this for the block to be clean. */
  expectedOrgId: string;
}

/**
 * Receipt lines checked away from the verifier that holds the chain. Clean: every line is a
 * receipt with no finding, each links to the one before, every payload is of the expected org.
 * Anything else is reported only as not clean: the verifier then checks those lines itself, so
 * findings are always made, worded and numbered by one code path.
 */
export type CheckedBlock =
  | { clean: false }
  | {
      clean: true;
      /** Physical lines in the block, blank ones included. */
      physicalLines: number;
      /** Non-blank lines: the receipts. */
      receiptLines: number;
      run: VerifiedRun;
      /** receiptLeafHash of each receipt, in order, 32 bytes each. */
      leafHashes: Uint8Array;
      /** Whether the last receipt line is complete JSON as it stands (a cut-off line is not). */
      lastComplete: boolean;
    };

/**
 * Checks consecutive export lines after the header with the export verifier's own checks (see
 * CheckedBlock), in constant memory besides the leaf hashes: what a worker thread runs.
 */
export class BlockChecker {
  readonly #options: BlockCheckOptions;
  #chain: ChainVerifier | undefined;
  #first: VerifiedRun['first'] | undefined;
  #dirty = false;
  #physical = 0;
  #receipts = 0;
  #leaves: Uint8Array;
  #lastText = '';

  constructor(options: BlockCheckOptions, expectedReceipts = 1024) {
    this.#options = options;
    this.#leaves = new Uint8Array(expectedReceipts * HASH_SIZE);
  }

  push(line: ExportLine): void {
    this.#physical += 1;
    if (this.#dirty || isBlank(line.text)) return;
    this.#receipts += 1;
    this.#lastText = line.text;
    const chain = this.#chain ?? this.#start(line);
    if (chain === undefined) return;
    const entry = checkReceiptLine(line, this.#physical, chain, this.#options.strict === true);
    // Any finding (a bad line makes one too) makes the block not clean: stop checking it.
    if (entry === undefined || chain.findings > 0) {
      this.#dirty = true;
      return;
    }
    this.#addLeaf(receiptLeafHash(entry.receipt_sha256));
  }

  /** The chain, resumed after the receipt the first line names as its parent. */
  #start(line: ExportLine): ChainVerifier | undefined {
    const parsed = parseExportLine(line.text);
    const entry = parsed.ok ? parsed.entry : undefined;
    if (
      entry === undefined ||
      !Number.isSafeInteger(entry.org_seq) ||
      entry.org_seq < 0 ||
      typeof entry.parent_hash !== 'string'
    ) {
      this.#dirty = true;
      return undefined;
    }
    this.#first = { org_seq: entry.org_seq, parent_hash: entry.parent_hash };
    this.#chain = new ChainVerifier({
      strict: this.#options.strict,
      receiptPrefix: this.#options.receiptPrefix,
      expectedOrgId: this.#options.expectedOrgId,
      maxErrors: 1,
      ...(entry.org_seq === 0
        ? {}
        : { after: { org_seq: entry.org_seq - 1, receipt_sha256: entry.parent_hash } }),
    });
    return this.#chain;
  }

  #addLeaf(hash: Uint8Array): void {
    const at = (this.#receipts - 1) * HASH_SIZE;
    if (at + HASH_SIZE > this.#leaves.length) {
      const bigger = new Uint8Array(this.#leaves.length * 2);
      bigger.set(this.#leaves);
      this.#leaves = bigger;
    }
    this.#leaves.set(hash, at);
  }

  finish(): CheckedBlock {
    if (this.#dirty) return { clean: false };
    const run =
      this.#chain === undefined || this.#first === undefined
        ? undefined
        : this.#chain.verifiedRun(this.#first);
    if (this.#receipts > 0 && run === undefined) return { clean: false };
    return {
      clean: true,
      physicalLines: this.#physical,
      receiptLines: this.#receipts,
      run: run ?? {
        count: 0,
        first: { org_seq: 0, parent_hash: '' },
        last: { receipt_id: '', org_seq: 0, stored: '', computed: '' },
        orgId: this.#options.expectedOrgId,
      },
      leafHashes: this.#leaves.slice(0, this.#receipts * HASH_SIZE),
      lastComplete: this.#receipts === 0 || isCompleteJson(this.#lastText),
    };
  }
}
