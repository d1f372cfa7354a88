import type { components } from '../generated/main-api.js';
import { fields, table } from '../output.js';

type Schemas = components['schemas'];

/** Text views shared by several run commands. */
export const runLine = (run: Schemas['Run']) =>
  fields([
    ['id', run.id],
    ['title', run.title],
    ['state', run.state],
    ['project', run.project_id],
    ['flight sheet', `${run.flight_sheet_id} (${run.flight_sheet_version})`],
    ['created', run.created_at],
  ]);

export const checksTable = (checks: readonly Schemas['Check'][]) =>
  table(checks, [
    ['ID', (c) => c.id],
    ['KEY', (c) => c.key],
    ['KIND', (c) => c.kind],
    ['STATUS', (c) => c.status],
    ['DETAIL', (c) => c.detail],
  ]);

export const verdictLine = (verdict: Schemas['Verdict']) =>
  verdict === null
    ? 'verdict: not final yet'
    : `verdict: ${verdict.outcome} (${verdict.severity}), score ${verdict.score} ` +
      `(pass ≥ ${verdict.pass_threshold}, fail < ${verdict.fail_threshold}); ` +
      `${verdict.counts.pass} pass, ${verdict.counts.flag} flag, ${verdict.counts.open} open, ${verdict.counts.skip} skip`;

export const evidenceTable = (evidence: readonly Schemas['Evidence'][]) =>
  table(evidence, [
    ['ID', (e) => e.id],
    ['KIND', (e) => e.kind],
    ['LABEL', (e) => e.label],
    ['SIZE', (e) => e.size],
    ['SHA256', (e) => e.sha256.slice(0, 16)],
  ]);

export const receiptFields = (receipt: NonNullable<Schemas['Receipt']>) =>
  fields([
    ['receipt', receipt.receipt_id],
    ['org_seq', receipt.org_seq],
    ['sha256', receipt.receipt_sha256],
    ['parent', receipt.parent_hash],
    ['created', receipt.created_at],
    ['share', receipt.share_url],
    ['pdf', receipt.pdf_url],
  ]);
