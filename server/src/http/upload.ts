import { asDiskFull } from '@runledger/adapters';
import { RunledgerError } from '@runledger/core';
import { inputProblem } from '@runledger/core/schemas';
import { type BlobStore, type PreparedBlob } from '@runledger/core/ports';
import type { Request, Response } from 'express';
import multer from 'multer';

export interface UploadSpec {
  /** Receives the file part as it arrives (into its own spool, never into memory). */
  blobs: BlobStore;
  maxBytes: number;
  fileField: string;
  /** The text fields allowed besides the file; any other part is a 400. */
  textFields: readonly string[];
}

export interface ReceivedUpload {
  /** Hashed and synced, not yet in the store: commit or discard it. */
  blob: PreparedBlob;
  filename: string;
  contentType: string;
  size: number;
  fields: Record<string, string>;
}

/** multer's error codes → what the client is told. Sizes are 413; every other shape problem is 400. */
function uploadError(error: unknown, spec: UploadSpec): RunledgerError {
  // A full disk is a 503, whether the blob store or the file part's stream reported it first.
  const fault = asDiskFull(error);
  if (fault instanceof RunledgerError) return fault;
  if (!(error instanceof multer.MulterError)) {
    return new RunledgerError('invalid_input', 'malformed multipart body', { cause: error });
  }
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new RunledgerError(
        'too_large',
        `file is larger than ${spec.maxBytes} bytes (${spec.maxBytes / 1024 / 1024} MB)`,
      );
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new RunledgerError(
        'invalid_input',
        `body.${error.field ?? 'file'}: unexpected file part; send one file part named ${spec.fileField}`,
      );
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
      return new RunledgerError(
        'invalid_input',
        `too many parts; send exactly ${[spec.fileField, ...spec.textFields].join(' and ')}`,
      );
    default:
      return new RunledgerError('invalid_input', `multipart body rejected: ${error.message}`);
  }
}

/** A multer storage engine that streams the file part into the blob store (`BlobStore.prepare`). */
function blobStorage(blobs: BlobStore): multer.StorageEngine {
  return {
    _handleFile(_req, file, done) {
      blobs.prepare(file.stream).then(
        (blob) => done(null, { blob, size: blob.size } as Partial<Express.Multer.File>),
        (error: unknown) => done(error as Error),
      );
    },
    _removeFile(_req, file, done) {
      const { blob } = file as Express.Multer.File & { blob?: PreparedBlob };
      (blob ? blob.discard() : Promise.resolve()).then(
        () => done(null),
        (error: unknown) => done(error as Error),
      );
    },
  };
}

/** The text rule (docs/http.md, "What a request may contain") over the text fields and the file name. */
function textFieldProblem(
  fields: Record<string, unknown>,
  file: { field: string; name: string | undefined },
) {
  const found =
    inputProblem(fields, 'body') ??
    (file.name === undefined ? undefined : inputProblem(file.name, `body.${file.field}.filename`));
  return found === undefined ? null : `${found.field}: ${found.problem}`;
}

/**
 * Reads a multipart body with one file part and the given text fields, streaming the file into the
 * blob store (never into memory). On any failure nothing is kept: multer discards a file it
 * rejects (too large, a second file), and a file that arrived with a bad field is discarded here.
 */
export async function receiveUpload(
  req: Request,
  res: Response,
  spec: UploadSpec,
): Promise<ReceivedUpload> {
  const middleware = multer({
    storage: blobStorage(spec.blobs),
    defParamCharset: 'utf8',
    limits: {
      fileSize: spec.maxBytes,
      files: 1,
      fields: spec.textFields.length,
      parts: spec.textFields.length + 1,
      fieldSize: 4096,
    },
  }).single(spec.fileField);

  await new Promise<void>((resolve, reject) => {
    middleware(req, res, (error?: unknown) =>
      error ? reject(uploadError(error, spec)) : resolve(),
    );
  });

  const file = req.file as (Express.Multer.File & { blob: PreparedBlob }) | undefined;
  const fields = { ...(req.body as Record<string, unknown>) };
  const unknown = Object.keys(fields).find((name) => !spec.textFields.includes(name));
  const problem =
    unknown !== undefined
      ? `body.${unknown}: unknown field`
      : Object.values(fields).some((value) => typeof value !== 'string')
        ? 'text fields must be plain name=value parts'
        : textFieldProblem(fields, { field: spec.fileField, name: file?.originalname });
  if (file === undefined) {
    throw new RunledgerError(
      'invalid_input',
      problem ?? `body.${spec.fileField}: a file part is required`,
    );
  }
  if (problem !== null) {
    await file.blob.discard();
    throw new RunledgerError('invalid_input', problem);
  }
  return {
    blob: file.blob,
    filename: file.originalname,
    contentType: file.mimetype,
    size: file.size,
    fields: fields as Record<string, string>,
  };
}
