import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { CliError } from '../errors.js';
import type { Progress } from '../progress.js';

export interface FileUpload {
  /** The body to hand to fetch: read from disk as the request goes out, never held whole in memory. */
  body: AsyncIterable<Uint8Array>;
  contentType: string;
}

/** Quotes and line breaks in a file name would end the header early; percent-encode them. */
const headerSafe = (name: string) =>
  name.replace(
    /["\r\n\\]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );

export async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    return info.size;
  } catch (error) {
    throw new CliError('local_input', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A multipart/form-data body with the text fields first and then one file part, streamed from `path`. */
export function multipartFile(
  fields: Record<string, string>,
  fileField: string,
  path: string,
  progress: Progress,
): FileUpload {
  const boundary = `----runledger${randomBytes(12).toString('hex')}`;
  const head = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${headerSafe(basename(path))}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  async function* body(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(head + fileHead, 'utf8');
    let sent = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
      sent += (chunk as Buffer).length;
      progress.update(sent);
      yield chunk as Buffer;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}` };
}
