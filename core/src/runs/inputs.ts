import { canonicalJson } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { RunledgerError, invalidInput, notFound } from '../errors.js';
import { findFlightSheet } from '../flight-sheets/use-cases.js';
import { actorId } from '../actor.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import type { RunRecord } from '../ports/storage.js';
import { SubmissionIn, type RunCreateBody } from '../schemas/run.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { loadRunForUpdate, toRun, toSubmission } from './views.js';
import { runReadUseCases } from './run-reads.js';
import { inputsChanged } from './inputs-changed.js';
import { runEvidenceUseCases } from './run-evidence.js';
import { emitRunCreated } from '../webhooks/emit.js';

type InputUseCases = Pick<
  RunUseCases,
  | 'create'
  | 'list'
  | 'get'
  | 'assertCanAddEvidence'
  | 'addEvidence'
  | 'addFileEvidence'
  | 'listEvidence'
  | 'evidenceFile'
  | 'submit'
  | 'getSubmission'
>;

export function runInputUseCases(deps: Deps): InputUseCases {
  const { storage, clock, random } = deps;

  return {
    async create(actor: Actor, input: RunCreateBody) {
      return storage.write(async (tx) => {
        const [project, sheet] = await Promise.all([
          tx.projects.get(actor.orgId, input.project_id),
          findFlightSheet(tx, actor.orgId, input.flight_sheet_id),
        ]);
        if (!project) throw notFound('project');
        if (!sheet) throw notFound('flight sheet');
        const now = nowIso(clock);
        const run: RunRecord = {
          id: newId('run', random),
          org_id: actor.orgId,
          project_id: input.project_id,
          flight_sheet_id: sheet.id,
          flight_sheet_slug: sheet.slug,
          flight_sheet_version: sheet.version,
          flight_sheet_sha256: sheet.sha256,
          title: input.title.trim(),
          agent_profile: input.agent_profile ?? null,
          state: 'draft',
          verdict: null,
          approval: null,
          created_at: now,
          created_by: actorId(actor),
          updated_at: now,
        };
        // Nothing is read after the run's row and its event: they end the transaction.
        tx.endWith(emitRunCreated(tx, run), tx.runs.insert(run));
        return toRun(run);
      });
    },

    async submit(actor, runId, body: unknown) {
      if (!SubmissionIn.safeParse(body).success) {
        throw invalidInput('a submission is a JSON object or array');
      }
      let text: string;
      try {
        text = canonicalJson(body);
      } catch (error) {
        throw new RunledgerError('invalid_input', 'the submission is not plain JSON', {
          cause: error,
        });
      }
      return storage.write(async (tx) => {
        const run = await loadRunForUpdate(tx, actor.orgId, runId);
        const now = nowIso(clock);
        const record = {
          run_id: run.id,
          org_id: actor.orgId,
          body_text: text,
          sha256: sha256Hex(text),
          submitted_at: now,
        };
        await inputsChanged(tx, run, now, tx.submissions.put(record));
        return toSubmission(record);
      });
    },
    ...runReadUseCases(deps),
    ...runEvidenceUseCases(deps),
  };
}
