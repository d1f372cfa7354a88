import { canonicalJson } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { RunledgerError, conflict, notFound } from '../errors.js';
import { findFlightSheet } from '../flight-sheets/use-cases.js';
import { flightSheetContent, flightSheetSha256 } from '../flight-sheets/sha256.js';
import { validateFlightSheetInput } from '../flight-sheets/validate.js';
import { actorId, requireOwner, type Actor } from '../actor.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import type { Repositories } from '../ports/storage.js';
import type { TribunalTaskRecord, TribunalVerdictRecord } from '../ports/tribunal-storage.js';
import type { FlightSheetInput } from '../schemas/flight-sheet.js';
import type { TribunalGradeBody } from '../schemas/tribunal.js';
import type { Deps } from '../deps.js';
import type { TribunalUseCases } from './api.js';
import { newTaskClaimState } from './claims.js';
import { runnerUseCases } from './runner.js';
import { toTribunalVerdict } from './views.js';

interface PinnedSheet {
  id: string | null;
  content: FlightSheetInput;
}

async function pinSheet(
  tx: Repositories,
  orgId: string,
  sheet: TribunalGradeBody['flight_sheet'],
): Promise<PinnedSheet> {
  if (typeof sheet !== 'string') return { id: null, content: validateFlightSheetInput(sheet) };
  const found = await findFlightSheet(tx, orgId, sheet);
  if (!found) throw notFound('flight sheet');
  return { id: found.id, content: flightSheetContent(found) };
}

function newTask(verdictId: string, at: string, random: Deps['random']): TribunalTaskRecord {
  const claim = newTaskClaimState();
  return {
    task_id: newId('tsk', random),
    verdict_id: verdictId,
    ...claim,
    claim_expires_at: null,
    message: null,
    created_at: at,
    updated_at: at,
  };
}

export function tribunalUseCases(deps: Deps): TribunalUseCases {
  const { storage, clock, random } = deps;

  return {
    async grade(actor, input) {
      const submissionText = canonicalSubmission(input.submission);
      const evidence = (input.evidence ?? []).map(({ kind, label, content }) => ({
        kind,
        label,
        content,
      }));
      const at = nowIso(clock);
      const verdictId = newId('vrd', random);
      await storage.write(async (tx) => {
        const sheet = await pinSheet(tx, actor.orgId, input.flight_sheet);
        const record = newVerdict(actor, verdictId, sheet, submissionText, evidence, at);
        await tx.tribunalVerdicts.insert(record);
        await tx.tribunalTasks.insert(newTask(verdictId, at, random));
      });
      return { verdict_id: verdictId, status: 'queued' };
    },

    async get(actor, verdictId) {
      const record = await storage.read((tx) => tx.tribunalVerdicts.get(actor.orgId, verdictId));
      if (!record) throw notFound('verdict');
      return toTribunalVerdict(record);
    },

    async regrade(actor, input) {
      const owner = requireOwner(actor);
      const at = nowIso(clock);
      return storage.write(async (tx) => {
        const record = await tx.tribunalVerdicts.get(owner.orgId, input.verdict_id);
        if (!record) throw notFound('verdict');
        if (record.status !== 'complete' && record.status !== 'failed') {
          throw conflict(
            `the verdict is ${record.status}; only a complete or failed one is regraded`,
          );
        }
        const previous = {
          checks: record.checks,
          verdict: record.verdict,
          error: record.error,
          // A finished verdict always has graded_at; updated_at is the same instant.
          graded_at: record.graded_at ?? record.updated_at,
          reason: input.reason,
          regraded_by: owner.userId,
          regraded_at: at,
        };
        const changed = await tx.tribunalVerdicts.update(record.verdict_id, record.status, {
          status: 'queued',
          checks: null,
          verdict: null,
          error: null,
          graded_at: null,
          history: [...record.history, previous],
          updated_at: at,
        });
        if (!changed) throw conflict('the verdict changed meanwhile; try again');
        await tx.tribunalTasks.insert(newTask(record.verdict_id, at, random));
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'tribunal.regraded',
            verdict_id: record.verdict_id,
            reason: input.reason,
            before: { status: record.status },
            after: { status: 'queued' },
          },
          new Date(at),
        );
        return { verdict_id: record.verdict_id, status: 'queued' as const };
      });
    },

    ...runnerUseCases(deps),
  };
}

/** The submission as canonical JSON, or a 400 when it is not plain JSON. */
function canonicalSubmission(submission: unknown): string {
  try {
    return canonicalJson(submission);
  } catch (error) {
    throw new RunledgerError('invalid_input', 'the submission is not plain JSON', {
      cause: error,
    });
  }
}

/** A queued verdict of a sheet pinned at request time. */
function newVerdict(
  actor: Actor,
  verdictId: string,
  sheet: PinnedSheet,
  submissionText: string,
  evidence: { kind: string; label: string; content: string }[],
  at: string,
): TribunalVerdictRecord {
  return {
    verdict_id: verdictId,
    org_id: actor.orgId,
    status: 'queued',
    flight_sheet_id: sheet.id,
    flight_sheet_slug: sheet.content.slug,
    flight_sheet_version: sheet.content.version,
    flight_sheet_sha256: flightSheetSha256(sheet.content),
    flight_sheet_text: canonicalJson(flightSheetContent(sheet.content)),
    submission_text: submissionText,
    submission_sha256: sha256Hex(submissionText),
    evidence_text: JSON.stringify(evidence),
    checks: null,
    verdict: null,
    error: null,
    graded_at: null,
    history: [],
    created_by: actorId(actor),
    created_at: at,
    updated_at: at,
  };
}
