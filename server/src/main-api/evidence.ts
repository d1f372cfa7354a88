import { RunledgerError, type Runledger } from '@runledger/core';
import type { BlobStore } from '@runledger/core/ports';
import { Evidence, EvidenceIn, EvidenceList } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import {
  addUploadedEvidence,
  EVIDENCE_FILE_MAX_BYTES,
  sendEvidenceFile,
} from './evidence-files.js';
import { RunEvidenceParams, RunParams } from './params.js';

const LabelField = z.object({ label: z.string().trim().min(1).max(200) }).strict();

/** The upload's label; any other shape is a 400 naming the field. */
function labelOf(fields: Record<string, string>): string {
  const parsed = LabelField.safeParse(fields);
  if (!parsed.success) {
    throw new RunledgerError('invalid_input', 'body.label: 1 to 200 characters required');
  }
  return parsed.data.label;
}

export function evidenceRoutes({
  runledger,
  blobs,
}: {
  runledger: Runledger;
  blobs: BlobStore;
}): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/evidence',
      summary: 'Adds a text evidence item (note, text, url, log or json)',
      description:
        'A url is stored as text and never fetched. sha256 and size are of the UTF-8 content. ' +
        'Adding evidence after an audit returns the run to draft; after a decision it is a 409.',
      tag: 'evidence',
      auth: 'any',
      params: RunParams,
      body: EvidenceIn,
      status: 201,
      response: Evidence,
      errors: [404, 409],
      handler: async ({ actor, params, body }) =>
        runledger.runs.addEvidence(actor, params.run_id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/runs/{run_id}/evidence/upload',
      summary: 'Uploads a file as evidence (multipart: exactly the parts `file` and `label`)',
      description:
        `At most ${EVIDENCE_FILE_MAX_BYTES} bytes (25 MB): beyond, 413 and nothing is kept. ` +
        'Any other part is a 400. The run is checked before the file is read.',
      tag: 'evidence',
      auth: 'any',
      params: RunParams,
      nonJsonBody: {
        contentType: 'multipart/form-data',
        schema: {
          type: 'object',
          required: ['file', 'label'],
          additionalProperties: false,
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              contentMediaType: 'application/octet-stream',
              maxLength: EVIDENCE_FILE_MAX_BYTES,
            },
            label: { type: 'string', minLength: 1, maxLength: 200 },
          },
        },
      },
      status: 201,
      response: Evidence,
      errors: [404, 409],
      handler: async ({ actor, params, req, res }) =>
        addUploadedEvidence(
          { runledger, blobs },
          { actor, runId: params.run_id, req, res },
          { textFields: ['label'], labelOf },
        ),
    }),
    ...evidenceReadRoutes({ runledger, blobs }),
  ];
}

/** Reading a run's evidence: the list, and a file's content. */
function evidenceReadRoutes({
  runledger,
  blobs,
}: {
  runledger: Runledger;
  blobs: BlobStore;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/evidence',
      summary: 'The run’s evidence in the order it was added',
      tag: 'evidence',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: EvidenceList,
      errors: [404],
      handler: async ({ actor, params }) => ({
        evidence: await runledger.runs.listEvidence(actor, params.run_id),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/evidence/{evidence_id}/content',
      summary: 'Downloads an uploaded evidence file',
      description:
        'Always `application/octet-stream` with `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`, ' +
        'so an uploaded page or image is saved, never rendered in this origin. The declared type is in the evidence record.',
      tag: 'evidence',
      auth: 'any',
      params: RunEvidenceParams,
      status: 200,
      response: undefined,
      raw: { contentType: 'application/octet-stream', description: 'The file’s bytes' },
      errors: [404],
      handler: ({ actor, params, res }) =>
        sendEvidenceFile(
          { runledger, blobs },
          { actor, runId: params.run_id, evidenceId: params.evidence_id, res },
        ),
    }),
  ];
}
