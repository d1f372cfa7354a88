import type { Actor, Runledger } from '@runledger/core';
import type { BlobStore } from '@runledger/core/ports';
import type { Evidence } from '@runledger/core/schemas';
import type { Request, Response } from 'express';
import { receiveUpload } from '../http/upload.js';

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
  { runledger, blobs }: { runledger: Runledger; blobs: BlobStore },
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
