import type { ExportVerifyResult } from '../export/verify.js';
import type { ConsistencyResult } from '../ledger/consistency.js';
import type { SharedReceiptResult } from '../ledger/shared-receipt.js';
import type { Authorship } from '../ledger/signed-checkpoint.js';
import type { RouterFilesResult } from '../io/verify-files.js';

/** Human-readable summaries, one per command; --json prints the results themselves. */

export function authorshipLine(a: Authorship): string {
  switch (a.status) {
    case 'verified':
      return `AUTHORSHIP: signed by ${a.key_name} (key ${a.key_id})${a.signed_at === null ? '' : ` at ${a.signed_at}`}`;
    case 'not_checked':
      return `AUTHORSHIP NOT CHECKED: ${a.message}`;
    case 'no_checkpoint':
      return `AUTHORSHIP NOT CHECKED: ${a.message}`;
    case 'failed':
      return `AUTHORSHIP FAILED: ${a.message}`;
  }
}

function findingLines(
  errors: readonly { code: string; message: string; where: (string | null)[] }[],
  omitted: number,
): string[] {
  const lines = [`TAMPERED: ${errors.length + omitted} findings`];
  for (const e of errors) {
    const where = e.where.filter((part) => part !== null).join('  ');
    lines.push(`  ${e.code}  ${where}${where === '' ? '' : ': '}${e.message}`);
  }
  if (omitted > 0) lines.push(`  ... and ${omitted} more`);
  return lines;
}

export function exportSummary(file: string, result: ExportVerifyResult): string {
  const lines = [
    `${file}: org ${result.header.org_id}${result.header.log === undefined ? '' : `, log ${result.header.log}`}, exported ${result.header.exported_at}`,
    `${result.receipts_checked} receipts checked, head ${result.header.head_sha256}`,
    `Merkle root ${result.merkle_root}` +
      (result.checkpoint === null
        ? ''
        : `; checkpoint ${result.checkpoint.origin}, size ${result.checkpoint.tree_size}`),
  ];
  if (result.ok) {
    lines.push(
      'OK: every receipt hash, link and sequence number checks out' +
        (result.checkpoint === null ? '' : ', and the Merkle root is the checkpoint’s'),
    );
  } else {
    lines.push(
      ...findingLines(
        result.errors.map((e) => ({
          code: e.code,
          message: e.message,
          where: [
            e.line === undefined ? null : `line ${e.line}`,
            e.receipt_id ?? (e.line === undefined ? null : '(no receipt id)'),
            e.org_seq === null ? null : `org_seq ${e.org_seq}`,
          ],
        })),
        result.errors_omitted,
      ),
    );
  }
  lines.push(authorshipLine(result.authorship));
  return lines.join('\n') + '\n';
}

export function receiptsSummary(result: RouterFilesResult): string {
  const lines = [
    `${result.files_checked} files, ${result.receipts_checked} router receipts checked`,
  ];
  if (result.ok) lines.push('OK: every checksum, link and seq checks out');
  else {
    lines.push(
      ...findingLines(
        result.errors.map((e) => ({
          code: e.code,
          message: e.message,
          where: [`${e.file}:${e.line}`, e.receipt_id ?? '(no receipt id)'],
        })),
        result.errors_omitted,
      ),
    );
  }
  const anchored = result.files_checked - result.unanchored_files.length;
  if (anchored > 0) lines.push(`${anchored} files checked against their anchors`);
  if (result.unanchored_files.length > 0) {
    lines.push(
      `UNANCHORED: ${result.unanchored_files.length} files predate anchors; a cut at a line boundary cannot be detected in them`,
    );
  }
  const authorship = {
    verified: 'AUTHORSHIP: every anchor is signed by a supplied key',
    not_checked:
      'AUTHORSHIP NOT CHECKED: no key given (--key): anchors were compared, not their signatures',
    failed: 'AUTHORSHIP FAILED: see the findings',
    no_checkpoint: 'AUTHORSHIP NOT CHECKED: no anchors',
  } as const;
  lines.push(authorship[result.authorship]);
  return lines.join('\n') + '\n';
}

export function receiptSummary(file: string, result: SharedReceiptResult): string {
  const lines = [`${file}: receipt ${result.receipt_id ?? '(unreadable)'}`];
  if (result.checkpoint !== null) {
    lines.push(
      `checkpoint ${result.checkpoint.origin}, size ${result.checkpoint.tree_size}, root ${result.checkpoint.root_hash}`,
    );
  }
  if (result.ok)
    lines.push(
      'OK: the payload hash checks out and the inclusion proof leads to the checkpoint’s root',
    );
  else
    lines.push(
      ...findingLines(
        result.findings.map((f) => ({ ...f, where: [] })),
        0,
      ),
    );
  lines.push(authorshipLine(result.authorship));
  return lines.join('\n') + '\n';
}

export function consistencySummary(
  result: ConsistencyResult,
  subject: { old: string; new: string },
): string {
  const lines = [
    `${subject.old} (size ${result.old_size ?? '?'}) -> ${subject.new} (size ${result.new_size ?? '?'})`,
  ];
  if (result.ok)
    lines.push('OK: the later ledger extends the earlier one: nothing rewritten, only appended');
  else
    lines.push(
      ...findingLines(
        result.findings.map((f) => ({ ...f, where: [f.which ?? null] })),
        0,
      ),
    );
  lines.push(
    `old: ${authorshipLine(result.authorship.old)}`,
    `new: ${authorshipLine(result.authorship.new)}`,
  );
  return lines.join('\n') + '\n';
}
