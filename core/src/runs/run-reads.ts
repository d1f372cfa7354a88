import { notFound } from '../errors.js';
import { pinnedFlightSheet } from '../flight-sheets/use-cases.js';
import { pageQuery, toPaged } from '../paging.js';
import { type RunComposite } from '../schemas/run.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { toReceipt } from '../receipts/view.js';
import {
  loadRun,
  toApproval,
  toCheck,
  toEvidence,
  toIncident,
  toRun,
  toSubmission,
} from './views.js';

/** Reading runs: the list, the composite view, evidence and its files, the submission. */
export function runReadUseCases(
  deps: Deps,
): Pick<RunUseCases, 'list' | 'get' | 'listEvidence' | 'evidenceFile' | 'getSubmission'> {
  const { storage, config } = deps;
  return {
    async list(actor, query) {
      const { query: page, limit } = pageQuery(query);
      const filter = {
        project_id: query.project_id ?? null,
        state: query.state ?? null,
        flight_sheet_slug: query.flight_sheet_slug ?? null,
      };
      const rows = await storage.read((tx) => tx.runs.list(actor.orgId, filter, page));
      return toPaged(rows, limit, (r) => ({ created_at: r.created_at, id: r.id }), toRun);
    },

    async get(actor, runId): Promise<RunComposite> {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        const [sheet, evidence, submission, checks, receipt, incidents] = [
          await pinnedFlightSheet(tx, actor.orgId, run.flight_sheet_id),
          await tx.evidence.listByRun(actor.orgId, run.id),
          await tx.submissions.get(actor.orgId, run.id),
          await tx.checks.listByRun(actor.orgId, run.id),
          await tx.receipts.byRun(actor.orgId, run.id),
          await tx.incidents.listByRun(actor.orgId, run.id),
        ];
        return {
          run: toRun(run),
          flight_sheet: sheet,
          agent_profile: run.agent_profile,
          evidence: evidence.map(toEvidence),
          submission: submission ? toSubmission(submission) : null,
          checks: checks.map(toCheck),
          verdict: run.verdict,
          approval: run.approval ? toApproval(run.approval) : null,
          receipt: receipt ? toReceipt(receipt, config.publicBaseUrl) : null,
          incidents: incidents.map(toIncident),
          ownership: { org_id: run.org_id, project_id: run.project_id, created_by: run.created_by },
        };
      });
    },

    async listEvidence(actor, runId) {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        return (await tx.evidence.listByRun(actor.orgId, run.id)).map(toEvidence);
      });
    },

    async evidenceFile(actor, runId, evidenceId) {
      const evidence = await storage.read(async (tx) => {
        await loadRun(tx, actor.orgId, runId);
        return tx.evidence.get(actor.orgId, runId, evidenceId);
      });
      if (!evidence || evidence.kind !== 'file') throw notFound('evidence file');
      return {
        sha256: evidence.sha256,
        size: evidence.size,
        filename: evidence.filename ?? 'evidence',
        content_type: evidence.content_type ?? 'application/octet-stream',
      };
    },

    async getSubmission(actor, runId) {
      const submission = await storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        return tx.submissions.get(actor.orgId, run.id);
      });
      if (!submission) throw notFound('submission');
      return toSubmission(submission);
    },
  };
}
