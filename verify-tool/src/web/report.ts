import type { ChainError } from '../chain/types.js';
import type { ExportVerifyResult } from '../export/verify.js';
import type { SharedReceiptResult } from '../ledger/shared-receipt.js';
import type { Authorship } from '../ledger/signed-checkpoint.js';

/**
 * What the page shows for one verification, built from the library's results: every check with its
 * outcome, the findings with the receipt and line they are about, and what was proven about
 * authorship. Pure data, so it is tested without a browser.
 */
export type CheckStatus = 'pass' | 'fail' | 'not_checked';

export interface CheckRow {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface FindingRow {
  /** The check the finding belongs to (a CheckRow name). */
  check: string;
  code: string;
  line: number | null;
  receipt_id: string | null;
  org_seq: number | null;
  message: string;
}

export interface Report {
  subject: 'export' | 'share' | 'attestation';
  /** intact: every check passed; partial: what was checked passed, but not enough to tie it to a ledger. */
  verdict: 'intact' | 'tampered' | 'unreadable' | 'partial';
  headline: string;
  facts: [label: string, value: string][];
  checks: CheckRow[];
  findings: FindingRow[];
  findingsOmitted: number;
  authorship: string;
}

export interface CheckGroup {
  name: string;
  codes: readonly string[];
  passes: string;
}

const EXPORT_CHECKS: readonly CheckGroup[] = [
  {
    name: 'Export complete and readable',
    codes: ['bad_header', 'truncated_input', 'unreadable_input', 'bad_line'],
    passes: 'the header and every receipt line were read',
  },
  {
    name: 'Payload hashes',
    codes: ['hash_mismatch', 'bad_payload', 'not_canonical', 'bad_entry'],
    passes: 'every payload hashes to its receipt_sha256',
  },
  {
    name: 'Chain links and order',
    codes: ['parent_mismatch', 'seq_gap', 'seq_duplicate', 'seq_order', 'bad_genesis'],
    passes: 'each receipt links to the one before, org_seq 0, 1, 2, … with no gap',
  },
  {
    name: 'Receipt ids and fields',
    codes: ['id_mismatch', 'field_mismatch'],
    passes: 'ids, org_seq, parent_hash, org_id and created_at agree with each payload',
  },
  {
    name: 'Header count, head and organization',
    codes: ['count_mismatch', 'head_mismatch', 'header_mismatch'],
    passes: 'the header announces exactly these receipts and this last hash',
  },
  {
    name: 'Merkle root against the signed checkpoint',
    codes: ['bad_checkpoint', 'origin_mismatch', 'root_mismatch'],
    passes: 'the Merkle root of the receipts is the one the checkpoint signs',
  },
];

const SHARE_CHECKS: readonly CheckGroup[] = [
  {
    name: 'Share document readable',
    codes: ['bad_share', 'unreadable_input'],
    passes: 'the receipt, checkpoint and inclusion proof were read',
  },
  {
    name: 'Payload hash',
    codes: ['hash_mismatch'],
    passes: 'the payload hashes to receipt_sha256',
  },
  {
    name: 'Receipt id and position',
    codes: ['field_mismatch'],
    passes: 'receipt_id, org_seq and the proof’s leaf index agree',
  },
  {
    name: 'Checkpoint origin, size and root',
    codes: ['bad_checkpoint', 'origin_mismatch', 'root_mismatch'],
    passes: 'the checkpoint is this organization’s and signs the proof’s tree',
  },
  {
    name: 'Inclusion in the signed tree',
    codes: ['inclusion_invalid'],
    passes: 'the inclusion proof leads from the receipt to the checkpoint’s root',
  },
];

export const SIGNATURE_CHECK = 'Signature by a trusted key';

/** One sentence on authorship, in the page's words (the CLI says the same with --key). */
export function authorshipText(a: Authorship): string {
  switch (a.status) {
    case 'verified':
      return `AUTHORSHIP VERIFIED: the checkpoint is signed by ${a.key_name} (key ${a.key_id})${a.signed_at === null ? '' : ` at ${a.signed_at}`}.`;
    case 'not_checked':
      return 'AUTHORSHIP NOT CHECKED: no public key was given, so only the data against the checkpoint it carries was checked; whoever could rewrite the whole file could also have rewritten that checkpoint.';
    case 'no_checkpoint':
      return 'AUTHORSHIP NOT CHECKED: there is no signed checkpoint to check, only the hash chain; whoever could rewrite the whole file could also have re-hashed it.';
    case 'failed':
      return `AUTHORSHIP FAILED: ${a.message}`;
  }
}

export function signatureRow(a: Authorship): CheckRow {
  const status: CheckStatus =
    a.status === 'verified' ? 'pass' : a.status === 'failed' ? 'fail' : 'not_checked';
  const detail =
    a.status === 'verified'
      ? `signed by ${a.key_name} (key ${a.key_id})`
      : a.status === 'not_checked'
        ? 'no public key given'
        : a.message;
  return { name: SIGNATURE_CHECK, status, detail };
}

export function checkRows(
  groups: readonly CheckGroup[],
  findings: readonly { code: string }[],
  notChecked: ReadonlyMap<string, string> = new Map(),
): CheckRow[] {
  return groups.map((group) => {
    const failing = findings.filter((f) => group.codes.includes(f.code)).length;
    if (failing > 0) {
      return { name: group.name, status: 'fail', detail: `${failing} finding(s), listed below` };
    }
    const why = notChecked.get(group.name);
    return why === undefined
      ? { name: group.name, status: 'pass', detail: group.passes }
      : { name: group.name, status: 'not_checked', detail: why };
  });
}

export const checkOf = (groups: readonly CheckGroup[], code: string) =>
  code === 'signature_invalid'
    ? SIGNATURE_CHECK
    : (groups.find((g) => g.codes.includes(code))?.name ?? code);

export function exportReport(result: ExportVerifyResult): Report {
  const errors: ChainError[] = result.errors;
  const notChecked = new Map<string, string>();
  if (result.checkpoint === null && !errors.some((e) => e.code === 'bad_checkpoint')) {
    notChecked.set(EXPORT_CHECKS[5]!.name, 'the export carries no signed checkpoint');
  }
  const total = errors.length + result.errors_omitted;
  return {
    subject: 'export',
    verdict: result.ok ? 'intact' : 'tampered',
    headline: result.ok
      ? `INTACT: ${result.receipts_checked} receipts, every check passed`
      : `TAMPERED: ${total} finding(s); the failing checks are marked below`,
    facts: [
      ['Organization', result.header.org_id],
      ['Exported at', result.header.exported_at],
      ['Receipts checked', String(result.receipts_checked)],
      ['Head receipt_sha256', result.header.head_sha256],
      ['Merkle root', result.merkle_root],
      [
        'Checkpoint',
        result.checkpoint === null
          ? 'none'
          : `${result.checkpoint.origin}, size ${result.checkpoint.tree_size}`,
      ],
    ],
    checks: [...checkRows(EXPORT_CHECKS, errors, notChecked), signatureRow(result.authorship)],
    findings: errors.map((e) => ({
      check: checkOf(EXPORT_CHECKS, e.code),
      code: e.code,
      line: e.line ?? null,
      receipt_id: e.receipt_id,
      org_seq: e.org_seq,
      message: e.message,
    })),
    findingsOmitted: result.errors_omitted,
    authorship: authorshipText(result.authorship),
  };
}

export function shareReport(result: SharedReceiptResult): Report {
  return {
    subject: 'share',
    verdict: result.ok ? 'intact' : 'tampered',
    headline: result.ok
      ? `INTACT: receipt ${result.receipt_id ?? ''} is in the signed ledger, every check passed`
      : `TAMPERED: ${result.findings.length} finding(s); the failing checks are marked below`,
    facts: [
      ['Receipt', result.receipt_id ?? '(unreadable)'],
      [
        'Checkpoint',
        result.checkpoint === null
          ? 'none'
          : `${result.checkpoint.origin}, size ${result.checkpoint.tree_size}, root ${result.checkpoint.root_hash}`,
      ],
    ],
    checks: [...checkRows(SHARE_CHECKS, result.findings), signatureRow(result.authorship)],
    findings: result.findings.map((f) => ({
      check: checkOf(SHARE_CHECKS, f.code),
      code: f.code,
      line: null,
      receipt_id: result.receipt_id,
      org_seq: null,
      message: f.message,
    })),
    findingsOmitted: 0,
    authorship: authorshipText(result.authorship),
  };
}

/** A file that could not be read as a whole (cut off, not an export, not JSON): nothing was proven. */
export function unreadableReport(
  subject: Report['subject'],
  code: string,
  message: string,
): Report {
  const groups = subject === 'export' ? EXPORT_CHECKS : SHARE_CHECKS;
  const first = groups[0]!;
  return {
    subject,
    verdict: 'unreadable',
    headline:
      code === 'truncated_input'
        ? 'NOT VERIFIED: the export is truncated'
        : `NOT VERIFIED: the file cannot be read as ${subject === 'export' ? 'an export' : 'a share JSON'}`,
    facts: [],
    checks: [
      { name: first.name, status: 'fail', detail: message },
      ...groups.slice(1).map((g) => ({
        name: g.name,
        status: 'not_checked' as const,
        detail: 'not reached: the file could not be read',
      })),
      { name: SIGNATURE_CHECK, status: 'not_checked', detail: 'not reached' },
    ],
    findings: [{ check: first.name, code, line: null, receipt_id: null, org_seq: null, message }],
    findingsOmitted: 0,
    authorship: 'AUTHORSHIP NOT CHECKED: the file could not be read.',
  };
}
