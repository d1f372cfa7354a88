import { canonicalJson } from '../canonical/json.js';
import { sha256Hex } from '../hash/sha256.js';
import { GENESIS_PARENT, receiptId } from '../receipts/id.js';
import type {
  ChainError,
  ChainErrorCode,
  ChainVerifyOptions,
  ChainVerifyResult,
  LedgerEntryInput,
} from './types.js';

/** ISO 8601 UTC with milliseconds, the only time format the ledger stores. */
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const DEFAULT_RECEIPT_PREFIX = 'rcpt';
const DEFAULT_MAX_ERRORS = 1000;

/** What linkage needs of the receipt before: its position and both versions of its hash. */
interface Previous {
  receipt_id: string;
  org_seq: number;
  stored: string;
  computed: string;
}

/**
 * Consecutive receipts checked by a ChainVerifier with no finding, every payload of org `orgId`:
 * how a worker hands its part of a chain to the verifier that holds the whole (pushVerifiedRun).
 */
export interface VerifiedRun {
  count: number;
  /** The first receipt's org_seq and parent_hash: what links the run to the receipt before it. */
  first: { org_seq: number; parent_hash: string };
  /** The last receipt as the next one links to it. */
  last: Previous;
  orgId: string;
}

interface Where {
  receipt_id: string | null;
  org_seq: number | null;
  line: number | undefined;
}

type Payload = Record<string, unknown>;

function isPlainObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Verifies a ledger one entry at a time, in org_seq order, in constant memory: it keeps only the
 * previous entry's position and hash, counters, and the findings.
 *
 * Locating faults: each stored column is checked against something that does not depend on the
 * next or previous row's same column, so one altered field yields findings on that receipt
 * (and, for linkage, at most on its successor):
 * - the payload bytes against receipt_sha256 (hash_mismatch);
 * - org_seq, parent_hash, org_id against the payload, created_at against payload.minted_at (field_mismatch);
 * - receipt_id against prefix, org_seq and receipt_sha256 (id_mismatch);
 * - parent_hash against the previous receipt, org_seq against previous + 1.
 * Sequencing uses the payload's org_seq when the payload's hash checks out (it is then authentic)
 * and the stored column otherwise, and a successor may link to either the stored or the recomputed
 * hash of its predecessor, so a single altered column never cascades into "everything after".
 * A row that goes backwards or repeats does not move the position forward, so a swapped pair is
 * reported on the two swapped rows only.
 */
export class ChainVerifier {
  readonly #strict: boolean;
  readonly #prefix: string;
  readonly #maxErrors: number;
  readonly #expectedHead: string | undefined;
  #expectedOrgId: string | undefined;
  #previous: Previous | null = null;
  #checked = 0;
  #omitted = 0;
  readonly #errors: ChainError[] = [];

  constructor(options: ChainVerifyOptions = {}) {
    this.#strict = options.strict ?? false;
    this.#prefix = options.receiptPrefix ?? DEFAULT_RECEIPT_PREFIX;
    this.#maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
    this.#expectedOrgId = options.expectedOrgId;
    this.#expectedHead = options.expectedHeadSha256;
    const after = options.after;
    if (after !== undefined) {
      this.#previous = {
        receipt_id: after.receipt_id ?? `(receipt at org_seq ${after.org_seq})`,
        org_seq: after.org_seq,
        stored: after.receipt_sha256,
        computed: after.receipt_sha256,
      };
    }
  }

  get receiptsChecked(): number {
    return this.#checked;
  }

  /** How many findings were made so far (kept or omitted). */
  get findings(): number {
    return this.#errors.length + this.#omitted;
  }

  /** The org the ledger belongs to: the expected one, or the first authentic payload's org_id. */
  get orgId(): string | undefined {
    return this.#expectedOrgId;
  }

  /** Records a finding that is not about one entry's content (the export layer uses it). */
  report(error: ChainError): void {
    if (this.#errors.length < this.#maxErrors) this.#errors.push(error);
    else this.#omitted += 1;
  }

  /** Checks one entry against its payload and against the entry pushed before it. */
  push(entry: LedgerEntryInput, line?: number): void {
    const own = this.#checkOwn(entry, line);
    if (own !== null) this.#checkLinkage(entry, own.seq, own.computed, own.where);
  }

  /**
   * Takes a run of receipts another ChainVerifier already checked without a finding (see
   * VerifiedRun) as if they had been pushed here one by one, when that is provably the same: the
   * run's first receipt links to this chain's last one and its org is this chain's org. Returns
   * false, changing nothing, otherwise; the caller then pushes the run's entries itself.
   */
  pushVerifiedRun(run: VerifiedRun): boolean {
    if (run.count === 0) return true;
    const prev = this.#previous;
    const linked =
      prev === null
        ? run.first.org_seq === 0 && run.first.parent_hash === GENESIS_PARENT
        : run.first.org_seq === prev.org_seq + 1 &&
          (run.first.parent_hash === prev.stored || run.first.parent_hash === prev.computed);
    if (!linked) return false;
    if (this.#expectedOrgId !== undefined && this.#expectedOrgId !== run.orgId) return false;
    this.#expectedOrgId = run.orgId;
    this.#previous = { ...run.last };
    this.#checked += run.count;
    return true;
  }

  /**
   * The run pushed so far when nothing was found: what pushVerifiedRun needs to take it over.
   * `first` is the first pushed entry's position and parent; undefined when a finding was made.
   */
  verifiedRun(first: VerifiedRun['first']): VerifiedRun | undefined {
    const last = this.#previous;
    const orgId = this.#expectedOrgId;
    if (this.findings > 0 || last === null || orgId === undefined) {
      return undefined;
    }
    return { count: this.#checked, first, last: { ...last }, orgId };
  }

  /**
   * Checks one entry on its own (shape, hash, receipt id, entry fields against its payload), not its
   * place in a chain: what a single receipt's view can prove. Does not advance the chain position.
   */
  checkAlone(entry: LedgerEntryInput): void {
    this.#checkOwn(entry);
  }

  #checkOwn(
    entry: LedgerEntryInput,
    line?: number,
  ): { where: Where; seq: number; computed: string } | null {
    this.#checked += 1;
    const where: Where = {
      receipt_id: typeof entry.receipt_id === 'string' ? entry.receipt_id : null,
      org_seq: Number.isSafeInteger(entry.org_seq) ? entry.org_seq : null,
      line,
    };
    const shape = shapeProblem(entry);
    if (shape !== null) {
      this.#add(where, 'bad_entry', shape);
      return null;
    }
    if (!ISO_UTC_MS.test(entry.created_at)) {
      this.#add(
        where,
        'bad_entry',
        `created_at ${JSON.stringify(entry.created_at)} is not ISO 8601 UTC with milliseconds`,
      );
    }

    const { payload, computed } = this.#checkPayload(entry, where);
    const hashOk = computed === entry.receipt_sha256;
    if (payload !== undefined) this.#checkFields(entry, payload, hashOk, where);

    const expectedId = receiptId(this.#prefix, entry.org_seq, entry.receipt_sha256);
    if (entry.receipt_id !== expectedId) {
      this.#add(where, 'id_mismatch', `receipt_id should be ${expectedId}`);
    }

    const seq =
      hashOk && payload !== undefined && Number.isSafeInteger(payload.org_seq)
        ? (payload.org_seq as number)
        : entry.org_seq;
    return { where, seq, computed };
  }

  result(): ChainVerifyResult {
    if (this.#expectedHead !== undefined) {
      const last = this.#previous;
      const head = last === null ? GENESIS_PARENT : last.stored;
      if (this.#expectedHead !== head && this.#expectedHead !== last?.computed) {
        this.report({
          receipt_id: last?.receipt_id ?? null,
          org_seq: last?.org_seq ?? null,
          code: 'head_mismatch',
          message: `expected head ${this.#expectedHead}, the ledger ends at ${head}`,
        });
      }
    }
    const failures = this.#errors.length + this.#omitted;
    return {
      ok: failures === 0,
      receipts_checked: this.#checked,
      errors: [...this.#errors],
      errors_omitted: this.#omitted,
    };
  }

  /** Hashes the stored bytes; parses them; falls back to the canonical form only when needed. */
  #checkPayload(
    entry: LedgerEntryInput,
    where: Where,
  ): { payload: Payload | undefined; computed: string } {
    let computed = entry.payload_sha256 ?? sha256Hex(entry.payload_text);
    let payload: Payload | undefined;
    try {
      const parsed: unknown = JSON.parse(entry.payload_text);
      if (isPlainObject(parsed)) payload = parsed;
      else this.#add(where, 'bad_payload', 'payload is not a JSON object');
    } catch (error) {
      this.#add(where, 'bad_payload', `payload is not JSON: ${(error as Error).message}`);
    }
    if (payload !== undefined && (this.#strict || computed !== entry.receipt_sha256)) {
      let canonical: string | undefined;
      try {
        canonical = canonicalJson(payload);
      } catch (error) {
        this.#add(
          where,
          'bad_payload',
          `payload has no canonical form: ${(error as Error).message}`,
        );
      }
      if (canonical !== undefined && canonical !== entry.payload_text) {
        if (this.#strict) {
          this.#add(where, 'not_canonical', 'payload text is not its RFC 8785 canonical form');
        }
        // receipt_sha256 is defined over the canonical form, so a re-serialized but equal payload still verifies.
        const canonicalHash = sha256Hex(canonical);
        if (canonicalHash === entry.receipt_sha256) computed = canonicalHash;
      }
    }
    if (computed !== entry.receipt_sha256) {
      this.#add(
        where,
        'hash_mismatch',
        `payload hashes to ${computed}, stored receipt_sha256 is ${entry.receipt_sha256}`,
      );
    }
    return { payload, computed };
  }

  #checkFields(entry: LedgerEntryInput, payload: Payload, hashOk: boolean, where: Where): void {
    if (payload.org_seq !== entry.org_seq) {
      this.#add(
        where,
        'field_mismatch',
        `org_seq ${entry.org_seq} but payload.org_seq ${JSON.stringify(payload.org_seq)}`,
      );
    }
    if (payload.parent_hash !== entry.parent_hash) {
      this.#add(where, 'field_mismatch', `parent_hash differs from payload.parent_hash`);
    }
    // created_at is not hashed; tying it to the hashed minted_at makes an edit to it detectable.
    if (payload.minted_at !== undefined && payload.minted_at !== entry.created_at) {
      this.#add(
        where,
        'field_mismatch',
        `created_at ${entry.created_at} but payload.minted_at ${JSON.stringify(payload.minted_at)}`,
      );
    }
    // Without an expected org, the first authentic payload fixes it: a ledger belongs to one org.
    if (this.#expectedOrgId === undefined && hashOk && typeof payload.org_id === 'string') {
      this.#expectedOrgId = payload.org_id;
    }
    if (this.#expectedOrgId !== undefined && payload.org_id !== this.#expectedOrgId) {
      this.#add(
        where,
        'field_mismatch',
        `payload.org_id ${JSON.stringify(payload.org_id)}, expected ${this.#expectedOrgId}`,
      );
    }
  }

  #checkLinkage(entry: LedgerEntryInput, seq: number, computed: string, where: Where): void {
    const prev = this.#previous;
    const next: Previous = {
      receipt_id: entry.receipt_id,
      org_seq: seq,
      stored: entry.receipt_sha256,
      computed,
    };
    if (prev === null) {
      if (seq !== 0 || entry.parent_hash !== GENESIS_PARENT) {
        this.#add(
          where,
          'bad_genesis',
          `the first receipt must have org_seq 0 and parent_hash ${GENESIS_PARENT}`,
        );
      }
      this.#previous = next;
    } else if (seq === prev.org_seq + 1) {
      if (entry.parent_hash !== prev.stored && entry.parent_hash !== prev.computed) {
        this.#add(
          where,
          'parent_mismatch',
          `parent_hash is not the receipt_sha256 of ${prev.receipt_id}`,
        );
      }
      this.#previous = next;
    } else if (seq > prev.org_seq + 1) {
      this.#add(
        where,
        'seq_gap',
        `org_seq ${seq} follows ${prev.org_seq}: ${seq - prev.org_seq - 1} missing`,
      );
      this.#previous = next;
    } else if (seq === prev.org_seq) {
      this.#add(where, 'seq_duplicate', `org_seq ${seq} repeats ${prev.receipt_id}`);
    } else {
      this.#add(where, 'seq_order', `org_seq ${seq} comes after ${prev.org_seq}`);
    }
  }

  #add(where: Where, code: ChainErrorCode, message: string): void {
    const error: ChainError = {
      receipt_id: where.receipt_id,
      org_seq: where.org_seq,
      code,
      message,
    };
    if (where.line !== undefined) error.line = where.line;
    this.report(error);
  }
}

function shapeProblem(entry: LedgerEntryInput): string | null {
  for (const key of [
    'receipt_id',
    'parent_hash',
    'receipt_sha256',
    'created_at',
    'payload_text',
  ] as const) {
    if (typeof entry[key] !== 'string') return `${key} is not a string`;
  }
  if (!Number.isSafeInteger(entry.org_seq) || entry.org_seq < 0) {
    return `org_seq ${JSON.stringify(entry.org_seq)} is not a non-negative integer`;
  }
  return null;
}

/** Verifies a whole chain given in org_seq order. */
/** One receipt verified on its own (see ChainVerifier.checkAlone): the meaning of a share view's `verified`. */
export function verifyReceipt(
  entry: LedgerEntryInput,
  options: ChainVerifyOptions = {},
): ChainVerifyResult {
  const verifier = new ChainVerifier(options);
  verifier.checkAlone(entry);
  return verifier.result();
}

export function verifyChain(
  entries: Iterable<LedgerEntryInput>,
  options: ChainVerifyOptions = {},
): ChainVerifyResult {
  const verifier = new ChainVerifier(options);
  for (const entry of entries) verifier.push(entry);
  return verifier.result();
}
