import type { RunReceiptPayload, ShareView } from '@runledger/core';
import { proofOf, readableTime } from './view.js';

type Check = RunReceiptPayload['checks'][number];

/** What a check's status means, for someone who never saw the tool. */
export const STATUS_WORDS: Record<Check['status'], string> = {
  pass: 'Passed',
  flag: 'Flagged',
  skip: 'Skipped',
};

/** The legend shown on the page and in the PDF: tiers, severities and statuses in plain words. */
export const LEGEND: readonly { term: string; meaning: string }[] = [
  {
    term: 'Tier high',
    meaning:
      'a check that matters most: weighs 5 in the score; one flag here means the run cannot pass',
  },
  { term: 'Tier mid', meaning: 'an important check: weighs 3 in the score' },
  { term: 'Tier low', meaning: 'a minor check: weighs 1 in the score' },
  { term: 'Severity honey', meaning: 'nothing flagged above the low tier (the mildest result)' },
  { term: 'Severity jelly', meaning: 'the most serious flag is a mid-tier check' },
  {
    term: 'Severity propolis',
    meaning: 'at least one high-tier check was flagged (the most serious result)',
  },
  {
    term: 'Outcome pass / risk / fail',
    meaning:
      'pass: score at or above the rulebook’s pass mark and no high-tier flag; fail: score below its fail mark; risk: anything between',
  },
  {
    term: 'Score',
    meaning: 'passed weight ÷ graded weight × 100, rounded down; skipped checks do not count',
  },
  {
    term: 'Automatic check',
    meaning: 'evaluated by the software from the submitted report and evidence',
  },
  {
    term: 'Reviewer check',
    meaning: 'a checklist item a person graded; its criterion is shown beside the finding',
  },
];

/** What was found, as a finding (never the grader's instruction), and the criterion when a person graded it. */
export function findingOf(check: Check): { finding: string; criterion: string | null } {
  if (check.kind === 'checklist') {
    const finding =
      check.status === 'pass'
        ? 'A reviewer confirmed this criterion is met.'
        : check.status === 'flag'
          ? 'A reviewer found this criterion is not met.'
          : 'Not graded (skipped).';
    return { finding, criterion: check.detail };
  }
  return { finding: check.detail ?? STATUS_WORDS[check.status], criterion: null };
}

/** The checks `verified` stands for, named for people, with the verifier's codes that fail each. */
const CHECKS: readonly { name: string; what: string; codes: readonly string[] }[] = [
  {
    name: 'Readable content',
    what: 'the stored content is a JSON object',
    codes: ['bad_payload', 'bad_entry', 'not_canonical'],
  },
  {
    name: 'Content fingerprint',
    what: 'the content’s SHA-256 equals the fingerprint recorded when the receipt was issued',
    codes: ['hash_mismatch'],
  },
  {
    name: 'Receipt number',
    what: 'the receipt id is made of its sequence number and fingerprint',
    codes: ['id_mismatch'],
  },
  {
    name: 'Place in the ledger',
    what: 'the content names this organization, its sequence number and the previous receipt’s hash, as the ledger records them',
    codes: [
      'field_mismatch',
      'parent_mismatch',
      'seq_gap',
      'seq_duplicate',
      'seq_order',
      'bad_genesis',
    ],
  },
];

export interface CheckResult {
  name: string;
  what: string;
  ok: boolean;
  /** The verifier's own sentences for a failed check. */
  reasons: string[];
}

export interface Verification {
  ok: boolean;
  headline: string;
  asOf: string;
  asOfIso: string;
  checks: CheckResult[];
  /** The signed-checkpoint paragraph: what it proves, or that authorship is not yet proven. */
  authorship: string;
  /** How to check it oneself, one instruction a line. */
  howTo: string[];
  /** The deployment's `/verify` page, named in `howTo`. */
  verifyUrl: string;
}

export function verificationOf(view: ShareView): Verification {
  const { failures, checked_at: checkedAt } = view.verification;
  const checks = CHECKS.map((check) => {
    const reasons = failures.filter((f) => check.codes.includes(f.code)).map((f) => f.message);
    return { name: check.name, what: check.what, ok: reasons.length === 0, reasons };
  });
  // A failure the table does not name still fails the receipt, under its own code.
  const unnamed = failures.filter((f) => !CHECKS.some((c) => c.codes.includes(f.code)));
  for (const f of unnamed)
    checks.push({ name: f.code, what: f.code, ok: false, reasons: [f.message] });
  const ok = view.receipt.verified && checks.every((c) => c.ok);
  const failed = checks.filter((c) => !c.ok).map((c) => c.name);
  const asOf = readableTime(checkedAt);
  const { checkpoint, inclusion_proof: proof } = proofOf(view);
  const authorship = checkpoint
    ? `Signed checkpoint: the organization’s ledger of ${checkpoint.tree_size} receipts has root hash ` +
      `${checkpoint.root_hash}, signed with the key whose key fingerprint (key id) is ${checkpoint.key_id}` +
      (proof
        ? `; this receipt is leaf ${proof.leaf_index} of that tree (inclusion proof of ${proof.hashes.length} hashes).`
        : '.')
    : 'Authorship is not yet proven by a signed checkpoint: this says the receipt is intact in this server’s ledger, not who wrote that ledger.';
  const keyHint = checkpoint
    ? `the public key with fingerprint (key id) ${checkpoint.key_id}`
    : 'the deployment’s public key';
  return {
    ok,
    headline: ok
      ? `Verified as of ${asOf}: the receipt is exactly as it was issued.`
      : `NOT VERIFIED as of ${asOf}: failed ${failed.join(', ')}. The content below has been altered since the receipt was issued and must not be relied on.`,
    asOf,
    asOfIso: checkedAt,
    checks,
    authorship,
    howTo: [
      `Download the share JSON: curl -H 'Accept: application/json' ${view.share_url} > share.json`,
      `Run: runledger-verify receipt share.json --key <vkey>, with <vkey> ${keyHint} (published at ${view.base_url}/.well-known/runledger-keys.json)`,
      `Or open ${view.base_url}/verify and drop share.json there.`,
    ],
    verifyUrl: `${view.base_url}/verify`,
  };
}
