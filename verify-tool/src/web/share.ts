import { canonicalJson } from '../canonical/json.js';
import { VerifyError } from '../errors.js';
import { DEFAULT_RECEIPT_PREFIX, verifyReceipt } from '../chain/verifier.js';
import { verifySharedReceipt } from '../ledger/shared-receipt.js';
import type { TrustedKey } from '../note/keyring.js';
import type { WitnessPolicy } from '../witness/policy.js';
import { withWitnessRow } from './witnesses.js';
import { SIGNATURE_CHECK, shareReport, unreadableReport, type Report } from './report.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `acme` of `acme-000012-1a2b3c4d`: the prefix is the deployment's, not something a forger gains by. */
function prefixOf(receiptIdText: unknown): string | undefined {
  if (typeof receiptIdText !== 'string') return undefined;
  return /^(.+)-\d{6,}-[0-9a-f]{8}$/.exec(receiptIdText)?.[1];
}

/**
 * A share JSON: with its checkpoint and inclusion proof, the library's full check
 * (`runledger-verify receipt`); without them (a share view that carries only the receipt), what can
 * be checked is the payload against its own receipt_sha256 and id, and the page says that nothing
 * ties such a receipt to the organization's ledger.
 */
export function verifyShareDocument(
  doc: unknown,
  keys?: readonly TrustedKey[],
  witnesses?: WitnessPolicy,
): Report {
  if (!isObject(doc))
    return unreadableReport('share', 'bad_share', 'the file is not a JSON object');
  const receipt = isObject(doc.receipt) ? doc.receipt : doc;
  if (doc.checkpoint === undefined && doc.inclusion_proof === undefined) {
    return receiptOnlyReport(receipt);
  }
  const receiptPrefix = prefixOf(receipt.receipt_id);
  const result = verifySharedReceipt(doc, {
    ...(keys === undefined ? {} : { keys }),
    ...(witnesses === undefined ? {} : { witnesses }),
    receiptPrefix,
  });
  return withWitnessRow(shareReport(result), result.witnessed);
}

/** Where a single-receipt finding of the chain verifier belongs on the share page. */
const RECEIPT_CHECK: Record<string, string> = {
  hash_mismatch: 'Payload hash',
  id_mismatch: 'Receipt id and position',
  field_mismatch: 'Receipt id and position',
};

/**
 * The receipt alone, as the server's own `verified` means it (`verifyReceipt`): its payload hashes
 * to receipt_sha256, and its id and org_seq agree with the hash and payload.
 */
function receiptOnlyReport(receipt: Record<string, unknown>): Report {
  const { payload } = receipt;
  let payloadText: string;
  try {
    if (!isObject(payload))
      throw new VerifyError('bad_input', 'the share JSON has no payload object');
    payloadText = canonicalJson(payload);
  } catch (error) {
    if (error instanceof VerifyError) return unreadableReport('share', 'bad_share', error.message);
    throw error;
  }
  const result = verifyReceipt(
    {
      receipt_id: receipt.receipt_id as string,
      org_seq: receipt.org_seq as number,
      parent_hash: payload.parent_hash as string,
      receipt_sha256: receipt.receipt_sha256 as string,
      created_at: payload.minted_at as string,
      payload_text: payloadText,
    },
    { receiptPrefix: prefixOf(receipt.receipt_id) ?? DEFAULT_RECEIPT_PREFIX },
  );
  const findings: Report['findings'] = result.errors.map((e) => ({
    check: RECEIPT_CHECK[e.code] ?? 'Share document readable',
    code: e.code,
    line: null,
    receipt_id: e.receipt_id,
    org_seq: e.org_seq,
    message: e.message,
  }));
  const row = (name: string, passes: string) =>
    findings.some((f) => f.check === name)
      ? { name, status: 'fail' as const, detail: 'see the findings below' }
      : { name, status: 'pass' as const, detail: passes };
  const missing = 'this share JSON carries no checkpoint or inclusion proof';
  return {
    subject: 'share',
    verdict: result.ok ? 'partial' : 'tampered',
    headline: result.ok
      ? 'PARTLY CHECKED: the payload matches its receipt_sha256, but nothing ties this receipt to the organization’s ledger'
      : `TAMPERED: ${findings.length} finding(s); the failing checks are marked below`,
    facts: [
      ['Receipt', String(receipt.receipt_id)],
      ['receipt_sha256', String(receipt.receipt_sha256)],
      ['Checkpoint', 'none'],
    ],
    checks: [
      row('Share document readable', 'the receipt was read'),
      row('Payload hash', 'the payload hashes to receipt_sha256'),
      row('Receipt id and position', 'receipt_id and org_seq agree with the hash and payload'),
      { name: 'Checkpoint origin, size and root', status: 'not_checked', detail: missing },
      { name: 'Inclusion in the signed tree', status: 'not_checked', detail: missing },
      { name: SIGNATURE_CHECK, status: 'not_checked', detail: missing },
    ],
    findings,
    findingsOmitted: 0,
    authorship:
      'AUTHORSHIP NOT CHECKED: without a signed checkpoint anyone able to edit this file could also recompute its hash. Verify the organization’s export, or a share JSON that carries its checkpoint and inclusion proof.',
  };
}
