import { notFound } from '../errors.js';
import { pinnedFlightSheet } from '../flight-sheets/use-cases.js';
import { nowIso } from '../time.js';
import type { Verdict } from '../schemas/verdict.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { computeVerdict } from '../verdict/compute.js';
import { assertCanFinalize } from './lifecycle.js';
import { updateRun } from './update-run.js';
import { loadRun, toCheck } from './views.js';

/** After the audit: a run's checks, flags and verdict, and its findings (the verdict computed once no check is open). */
export function runFindingUseCases(
  deps: Deps,
): Pick<RunUseCases, 'checks' | 'flags' | 'verdict' | 'findings'> {
  const { storage, clock } = deps;
  return {
    async checks(actor, runId) {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        return { checks: (await tx.checks.listByRun(actor.orgId, run.id)).map(toCheck) };
      });
    },

    async flags(actor, runId) {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        const checks = await tx.checks.listByRun(actor.orgId, run.id);
        return {
          flags: checks
            .filter((c) => c.status === 'flag')
            .map((c) => ({ key: c.key, severity: c.severity, detail: c.detail })),
        };
      });
    },

    async verdict(actor, runId): Promise<Verdict> {
      const run = await storage.read((tx) => loadRun(tx, actor.orgId, runId));
      if (!run.verdict) throw notFound('verdict');
      return run.verdict;
    },

    async findings(actor, runId) {
      return storage.write(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        const checks = await tx.checks.listByRun(actor.orgId, run.id);
        const open = checks.filter((c) => c.status === 'open').length;
        if (assertCanFinalize(run.state, open) === 'already_finalized' && run.verdict) {
          return run.verdict;
        }
        const sheet = await pinnedFlightSheet(tx, actor.orgId, run.flight_sheet_id);
        const verdict = computeVerdict(checks, sheet);
        await updateRun(tx, run, { state: 'finalized', verdict, updated_at: nowIso(clock) });
        return verdict;
      });
    },
  };
}
