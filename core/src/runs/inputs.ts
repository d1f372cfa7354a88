import { canonicalJson, sha256Hex } from '@runledger/verify';
import { RunledgerError, invalidInput, notFound } from '../errors.js';
import { findFlightSheet, pinnedFlightSheet } from '../flight-sheets/use-cases.js';
import { actorId } from '../actor.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { EvidenceRecord, RunRecord, WriteTransaction } from '../ports/storage.js';
import type { Evidence, EvidenceIn } from '../schemas/evidence.js';
import { SubmissionIn, type RunComposite, type RunCreateBody } from '../schemas/run.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { toReceipt } from '../receipts/view.js';
import { afterInputChange, assertCanChangeInputs } from './lifecycle.js';
import { closeWithRunUpdate } from './update-run.js';
import { emitRunCreated } from '../webhooks/emit.js';
import {
  loadRun,
  loadRunForUpdate,
  toApproval,
  toCheck,
  toEvidence,
  toIncident,
  toRun,
  toSubmission,
} from './views.js';

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

/**
 * Ends a transaction that changed a run's inputs (evidence or the submission, `sent` and not
 * awaited): the run, read with `loadRunForUpdate`, goes back to draft, its verdict and (past a
 * draft) its checks cleared (docs/design.md#run-lifecycle). The run's update is the transaction's
 * last statement, with its COMMIT.
 */
async function inputsChanged(
  tx: WriteTransaction,
  run: RunRecord,
  now: string,
  sent: Promise<unknown>,
): Promise<void> {
  const state = afterInputChange(run.state);
  const cleared = run.state !== 'draft' ? tx.checks.replace(run.org_id, run.id, []) : undefined;
  closeWithRunUpdate(tx, run, { state, verdict: null, updated_at: now });
  await Promise.all([sent, cleared]);
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

export function runInputUseCases(deps: Deps): InputUseCases {
  const { storage, clock, random, blobs, config } = deps;

  async function insertEvidence(
    tx: WriteTransaction,
    actor: Actor,
    runId: string,
    record: (run: RunRecord, now: string) => EvidenceRecord,
  ) {
    const run = await loadRunForUpdate(tx, actor.orgId, runId);
    const now = nowIso(clock);
    const evidence = record(run, now);
    await inputsChanged(tx, run, now, tx.evidence.insert(evidence));
    return toEvidence(evidence);
  }

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
        // The transaction's last statement, sent with its COMMIT (one round trip on PostgreSQL).
        tx.closeWith(emitRunCreated(tx, run));
        tx.closeWith(tx.runs.insert(run));
        return toRun(run);
      });
    },

    async list(actor, query) {
      const { query: page, limit } = pageQuery(query);
      const filter = { project_id: query.project_id ?? null, state: query.state ?? null };
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

    async assertCanAddEvidence(actor, runId) {
      await storage.read(async (tx) => {
        assertCanChangeInputs((await loadRun(tx, actor.orgId, runId)).state);
      });
    },

    async addEvidence(actor, runId, input: EvidenceIn): Promise<Evidence> {
      return storage.write((tx) =>
        insertEvidence(tx, actor, runId, (run, now) => ({
          id: newId('evd', random),
          org_id: actor.orgId,
          run_id: run.id,
          kind: input.kind,
          label: input.label,
          content: input.content,
          sha256: sha256Hex(input.content),
          size: utf8Length(input.content),
          filename: null,
          content_type: null,
          created_at: now,
          created_by: actorId(actor),
        })),
      );
    },

    async addFileEvidence(actor, runId, input) {
      // The caller had the blob store hash and sync the file (the slow part) before this transaction,
      // so an upload never holds up other writers. The blob joins the store inside the transaction,
      // under the blob's lock, so the cleanup's reference count cannot race another upload of the
      // same bytes.
      const prepared = input.blob;
      let committed = false;
      try {
        return await storage.write(async (tx) => {
          assertCanChangeInputs((await loadRun(tx, actor.orgId, runId)).state);
          await tx.lock(lockKeys.blob(prepared.sha256));
          const blob = await prepared.commit();
          committed = true;
          const id = newId('evd', random);
          try {
            return await insertEvidence(tx, actor, runId, (run, now) => ({
              id,
              org_id: actor.orgId,
              run_id: run.id,
              kind: 'file',
              label: input.label,
              content: null,
              sha256: blob.sha256,
              size: blob.size,
              filename: input.filename,
              content_type: input.content_type,
              created_at: now,
              created_by: actorId(actor),
            }));
          } catch (error) {
            // Our own row, if inserted, is rolled back with the transaction: it does not count.
            const own = (await tx.evidence.get(actor.orgId, runId, id)) ? 1 : 0;
            if ((await tx.evidence.countFileRefs(blob.sha256)) - own === 0) {
              await blobs.delete(blob.sha256);
            }
            throw error;
          }
        });
      } finally {
        if (!committed) await prepared.discard();
      }
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
