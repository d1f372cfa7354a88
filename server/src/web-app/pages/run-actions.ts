import { RunledgerError } from '@runledger/core';
import {
  ApprovalIn,
  CheckGradeIn,
  EvidenceIn,
  RunCreateBody,
  SubmissionIn,
} from '@runledger/core/schemas';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { addUploadedEvidence, sendEvidenceFile } from '../../main-api/evidence-files.js';
import type { AppDeps } from '../deps.js';
import { runPath } from '../fragments.js';
import { fieldsOf, optionalText, parseFields } from '../form.js';
import { download, type PageHandler } from '../handlers.js';

const runIdOf = (params: Record<string, unknown>) => String(params.run_id);
const back = (runId: string, done: string) => ({ redirect: `${runPath(runId)}?done=${done}` });

/** The pasted JSON, parsed; a syntax error names its position as JSON.parse does. */
function submissionOf(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new RunledgerError('invalid_input', 'json: paste a JSON object or array');
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new RunledgerError('invalid_input', `json: not valid JSON (${(error as Error).message})`);
  }
  return parseFields(SubmissionIn, value);
}

const LabelField = z.object({ label: z.string().trim().min(1).max(200), csrf: z.string() });

/** The multipart upload: the CSRF field travels in the body, so it is checked before the blob is kept. */
function uploadAction(deps: AppDeps): PageHandler {
  return async ({ req, res, person }) => {
    const runId = runIdOf(req.params);
    await addUploadedEvidence(
      deps,
      { actor: person, runId, req, res },
      {
        textFields: ['csrf', 'label'],
        labelOf: (fields) => {
          deps.sessions.checkCsrf(req, fields.csrf);
          return parseFields(LabelField, fields).label;
        },
      },
    );
    return back(runId, 'uploaded');
  };
}

/** The forms of a run page, each one use case. */
export function runActions(deps: AppDeps) {
  const runs = deps.runledger.runs;
  const actions = {
    create: async ({ req, person }) => {
      const f = fieldsOf(req);
      const input = parseFields(RunCreateBody, {
        project_id: f.project_id,
        flight_sheet_id: f.flight_sheet_id,
        title: f.title,
      });
      const run = await runs.create(person, input);
      return back(run.id, 'created');
    },
    evidence: async ({ req, person }) => {
      const f = fieldsOf(req);
      const input = parseFields(EvidenceIn, {
        kind: f.kind,
        label: f.label,
        content: f.content ?? '',
      });
      await runs.addEvidence(person, runIdOf(req.params), input);
      return back(runIdOf(req.params), 'evidence');
    },
    upload: uploadAction(deps),
    submission: async ({ req, person }) => {
      await runs.submit(person, runIdOf(req.params), submissionOf(fieldsOf(req).json));
      return back(runIdOf(req.params), 'submitted');
    },
    audit: async ({ req, person }) => {
      await runs.audit(person, runIdOf(req.params));
      return back(runIdOf(req.params), 'audited');
    },
    grade: async ({ req, person }) => {
      const input = parseFields(CheckGradeIn, { status: fieldsOf(req).status });
      await runs.gradeCheck(person, runIdOf(req.params), String(req.params.check_id), input);
      return back(runIdOf(req.params), 'graded');
    },
    findings: async ({ req, person }) => {
      await runs.findings(person, runIdOf(req.params));
      return back(runIdOf(req.params), 'finalized');
    },
    decision: async ({ req, person }) => {
      const f = fieldsOf(req);
      const note = optionalText(f.note);
      const input = parseFields(ApprovalIn, { decision: f.decision, ...(note ? { note } : {}) });
      await runs.approve(person, runIdOf(req.params), input);
      return back(runIdOf(req.params), 'decided');
    },
    mint: async ({ req, person }) => {
      await runs.mintReceipt(person, runIdOf(req.params));
      return back(runIdOf(req.params), 'minted');
    },
  } satisfies Record<string, PageHandler>;
  return actions;
}

/** GET …/evidence/:evidence_id/download: the file as an attachment, never rendered in this origin. */
export function evidenceDownload(deps: AppDeps): RequestHandler {
  return download(deps, ({ req, res, person }) =>
    sendEvidenceFile(deps, {
      actor: person,
      runId: runIdOf(req.params),
      evidenceId: String(req.params.evidence_id),
      res,
    }),
  );
}
