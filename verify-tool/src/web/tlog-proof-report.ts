import type { TlogProofResult } from '../tlog-proof/verify.js';
import {
  authorshipText,
  checkOf,
  checkRows,
  signatureRow,
  type CheckGroup,
  type Report,
} from './report.js';
import { withWitnessRow } from './witnesses.js';

/** The first bytes of a C2SP tlog-proof file. */
export const TLOG_PROOF_MAGIC = 'c2sp.org/tlog-proof@v1\n';

const TLOG_PROOF_CHECKS: readonly CheckGroup[] = [
  { name: 'tlog-proof readable', codes: ['bad_proof'], passes: 'the proof file was read' },
  {
    name: 'Checkpoint origin, size and root',
    codes: ['bad_checkpoint', 'origin_mismatch', 'root_mismatch'],
    passes: 'the checkpoint was read',
  },
  {
    name: 'Inclusion in the signed tree',
    codes: ['inclusion_invalid'],
    passes: 'the receipt hash at its index leads to the checkpoint’s root',
  },
];

/** What the page shows for a tlog-proof file (`runledger-verify tlog-proof`). */
export function tlogProofReport(result: TlogProofResult): Report {
  const report: Report = {
    subject: 'share',
    verdict: result.ok ? 'intact' : result.index === null ? 'unreadable' : 'tampered',
    headline: result.ok
      ? `INTACT: receipt ${result.receipt_sha256 ?? ''} is leaf ${result.index ?? ''} of the signed tree, every check passed`
      : `TAMPERED: ${result.findings.length} finding(s); the failing checks are marked below`,
    facts: [
      ['Proof', 'C2SP tlog-proof'],
      ['receipt_sha256', result.receipt_sha256 ?? '(unreadable)'],
      ['Index (org_seq)', result.index === null ? '(unreadable)' : String(result.index)],
      [
        'Checkpoint',
        result.checkpoint === null
          ? 'none'
          : `${result.checkpoint.origin}, size ${result.checkpoint.tree_size}, root ${result.checkpoint.root_hash}`,
      ],
    ],
    checks: [...checkRows(TLOG_PROOF_CHECKS, result.findings), signatureRow(result.authorship)],
    findings: result.findings.map((f) => ({
      check: checkOf(TLOG_PROOF_CHECKS, f.code),
      code: f.code,
      line: null,
      receipt_id: null,
      org_seq: result.index,
      message: f.message,
    })),
    findingsOmitted: 0,
    authorship: authorshipText(result.authorship),
  };
  return withWitnessRow(report, result.witnessed);
}
