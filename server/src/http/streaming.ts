import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/**
 * Pipes a body into the response with backpressure. A client that goes away mid-stream is not an
 * error of ours: the source is destroyed and nothing is logged; any other failure propagates.
 */
export async function streamTo(source: Readable, res: Response): Promise<void> {
  try {
    await pipeline(source, res);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  }
}

/** A file name safe inside `filename="…"` of a Content-Disposition header. */
export const safeFilename = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Answers NDJSON lines (without their newlines) as an attachment, with backpressure. The first
 * line is read before any header is sent, so a failure up front is still a clean error answer; a
 * client that goes away mid-stream ends the source (and its storage reads) as well.
 */
export async function streamNdjson(
  res: Response,
  source: AsyncIterable<string>,
  filename: string,
): Promise<void> {
  const lines = source[Symbol.asyncIterator]();
  const first = await lines.next();
  async function* rest(): AsyncGenerator<string> {
    if (first.done) return;
    yield `${first.value}\n`;
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      yield `${next.value}\n`;
    }
  }
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${safeFilename(filename)}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  try {
    await streamTo(Readable.from(rest()), res);
  } finally {
    await lines.return?.();
  }
}
