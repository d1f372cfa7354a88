import type { Readable } from 'node:stream';
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
