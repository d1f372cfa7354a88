import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { RunledgerError } from '@runledger/core';
import type { Request, Response } from 'express';
import multer from 'multer';

export interface UploadSpec {
  /** Where the file part is written while it arrives (the blob store's spool, same file system). */
  spoolDir: string;
  maxBytes: number;
  fileField: string;
  /** The text fields allowed besides the file; any other part is a 400. */
  textFields: readonly string[];
}

export interface SpooledUpload {
  path: string;
  filename: string;
  contentType: string;
  size: number;
  fields: Record<string, string>;
}

/** multer's error codes → what the client is told. Sizes are 413; every other shape problem is 400. */
function uploadError(error: unknown, spec: UploadSpec): RunledgerError {
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

/**
 * Reads a multipart body with one file part and the given text fields, spooling the file to disk
 * (never into memory). On any failure nothing stays in the spool: multer removes a partial file,
 * and a file that arrived with a bad field is removed here.
 */
export async function receiveUpload(
  req: Request,
  res: Response,
  spec: UploadSpec,
): Promise<SpooledUpload> {
  const middleware = multer({
    storage: multer.diskStorage({
      destination: spec.spoolDir,
      filename: (_req, _file, done) => done(null, `upload-${randomBytes(12).toString('hex')}`),
    }),
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

  const file = req.file;
  const fields = { ...(req.body as Record<string, unknown>) };
  const unknown = Object.keys(fields).find((name) => !spec.textFields.includes(name));
  const problem =
    unknown !== undefined
      ? `body.${unknown}: unknown field`
      : Object.values(fields).some((value) => typeof value !== 'string')
        ? 'text fields must be plain name=value parts'
        : null;
  if (file === undefined) {
    throw new RunledgerError(
      'invalid_input',
      problem ?? `body.${spec.fileField}: a file part is required`,
    );
  }
  if (problem !== null) {
    await rm(file.path, { force: true });
    throw new RunledgerError('invalid_input', problem);
  }
  return {
    path: file.path,
    filename: file.originalname,
    contentType: file.mimetype,
    size: file.size,
    fields: fields as Record<string, string>,
  };
}
