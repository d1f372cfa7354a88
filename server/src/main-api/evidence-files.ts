import { Readable } from 'node:stream';
import { RunledgerError, type Actor, type Runledger } from '@runledger/core';
import type { BlobStore } from '@runledger/core/ports';
import type { Evidence } from '@runledger/core/schemas';
import type { Request, Response } from 'express';
import { streamTo } from '../http/streaming.js';
import { receiveUpload } from '../http/upload.js';

/** What the evidence file routes of the API and of the web app work with. */
interface EvidenceFileDeps {
  runledger: Runledger;
  blobs: BlobStore;
}

/** SPEC: evidence files are at most 25 MB. */
export const EVIDENCE_FILE_MAX_BYTES = 25 * 1024 * 1024;

/** What a form uploading a file as evidence carries besides the part `file`. */
export interface EvidenceUploadForm {
  /** The text parts it may send; any other part is a 400. */
  textFields: readonly string[];
  /** The label read from those parts; throwing refuses the upload, and its file is dropped. */
  labelOf(fields: Record<string, string>): string;
}

/**
 * Adds an uploaded file to a run's evidence. The run is checked before a byte is read, so an unknown
 * or decided run never puts anything in the spool; the file streams into the blob store; a refused
 * label drops it, and from then on `addFileEvidence` keeps the file or drops it.
 */
export async function addUploadedEvidence(
  { runledger, blobs }: EvidenceFileDeps,
  { actor, runId, req, res }: { actor: Actor; runId: string; req: Request; res: Response },
  form: EvidenceUploadForm,
): Promise<Evidence> {
  await runledger.runs.assertCanAddEvidence(actor, runId);
  const upload = await receiveUpload(req, res, {
    blobs,
    maxBytes: EVIDENCE_FILE_MAX_BYTES,
    fileField: 'file',
    textFields: form.textFields,
  });
  let label: string;
  try {
    label = form.labelOf(upload.fields);
  } catch (error) {
    // The refusal is the answer: a spool file that cannot be removed (an I/O error) is left behind
    // rather than turn a 400 or 403 into a 500.
    await upload.blob.discard().catch(() => undefined);
    throw error;
  }
  return runledger.runs.addFileEvidence(actor, runId, {
    label,
    filename: upload.filename,
    content_type: upload.contentType,
    blob: upload.blob,
  });
}

/**
 * Answers with an evidence file's bytes: always `application/octet-stream` as an attachment with
 * `nosniff`, so an uploaded page or image is saved, never rendered in this origin. The blob is
 * opened before the status is sent, so a missing one is a clean 404 rather than a broken 200.
 */
export async function sendEvidenceFile(
  { runledger, blobs }: EvidenceFileDeps,
  {
    actor,
    runId,
    evidenceId,
    res,
  }: { actor: Actor; runId: string; evidenceId: string; res: Response },
): Promise<void> {
  const file = await runledger.runs.evidenceFile(actor, runId, evidenceId);
  const bytes = await blobs.open(file.sha256);
  if (bytes === null) throw new RunledgerError('not_found', 'evidence file not found');
  res.status(200);
  res.attachment(file.filename);
  res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'private, no-store');
  await streamTo(Readable.from(bytes, { objectMode: false }), res);
}
