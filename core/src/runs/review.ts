import { audit } from '../audit/audit.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { pinnedFlightSheet } from '../flight-sheets/use-cases.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import type { CheckRecord } from '../ports/storage.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { computeVerdict } from '../verdict/compute.js';
import { afterAudit, assertCanApprove, assertCanAudit, assertCanGrade } from './lifecycle.js';
import { endWithRunUpdate, updateRun } from './update-run.js';
import { loadRun, loadRunForUpdate, toApproval, toCheck } from './views.js';
import { runFindingUseCases } from './findings.js';

type ReviewUseCases = Pick<
  RunUseCases,
  'audit' | 'gradeCheck' | 'checks' | 'flags' | 'verdict' | 'findings' | 'approve'
>;

export function runReviewUseCases(deps: Deps): ReviewUseCases {
  const { storage, clock, random } = deps;

  return {
    async audit(actor, runId) {
      return storage.write(async (tx) => {
        // The run, its submission and its evidence are read together.
        const [run, submission, evidence] = await Promise.all([
          loadRunForUpdate(tx, actor.orgId, runId),
          tx.submissions.get(actor.orgId, runId),
          tx.evidence.listByRun(actor.orgId, runId),
        ]);
        assertCanAudit(run.state, submission !== null);
        const sheet = await pinnedFlightSheet(tx, actor.orgId, run.flight_sheet_id);
        const body: unknown = JSON.parse(submission?.body_text ?? 'null');
        const result = audit(sheet, body, evidence);
        const checks: CheckRecord[] = result.checks.map((draft, position) => ({
          ...draft,
          id: newId('chk', random),
          org_id: actor.orgId,
          run_id: run.id,
          position,
        }));
        const open = checks.filter((c) => c.status === 'open').length;
        const state = afterAudit(run.state, open);
        const verdict = state === 'finalized' ? computeVerdict(checks, sheet) : null;
        const replaced = tx.checks.replace(actor.orgId, run.id, checks);
        endWithRunUpdate(tx, run, { state, verdict, updated_at: nowIso(clock) });
        await replaced;
        return {
          checks: checks.map(toCheck),
          ...(verdict ? { verdict } : {}),
          needs_grading: result.needs_grading,
          deterministic: result.deterministic,
        };
      });
    },

    async gradeCheck(actor, runId, checkId, input) {
      return storage.write(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        const check = await tx.checks.get(actor.orgId, run.id, checkId);
        if (!check) throw notFound('check');
        assertCanGrade(run.state);
        if (!(await tx.checks.grade(actor.orgId, run.id, checkId, input.status))) {
          throw conflict(`the check is already graded (${check.status})`);
        }
        await updateRun(tx, run, { updated_at: nowIso(clock) });
        return toCheck({ ...check, status: input.status });
      });
    },

    async approve(actor, runId, input) {
      // An approval names a person; an API key acts for automation.
      if (actor.kind !== 'user') throw forbidden('an API key cannot decide a run; a person must');
      return storage.write(async (tx) => {
        const run = await loadRunForUpdate(tx, actor.orgId, runId);
        const state = assertCanApprove(run.state, input.decision, actor.role);
        const now = nowIso(clock);
        const approval = {
          decision: input.decision,
          note: input.note ?? null,
          decided_by: actor.userId,
          decided_at: now,
        };
        endWithRunUpdate(tx, run, { state, approval, updated_at: now });
        return toApproval(approval);
      });
    },
    ...runFindingUseCases(deps),
  };
}
