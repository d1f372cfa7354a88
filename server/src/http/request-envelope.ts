import type { Request, RequestHandler, Response } from 'express';
import { assignRequestId } from './request-id.js';
import { helmetHeaders, setHeaders } from './security-headers.js';

/** Told of each request once its answer is written, with how long it took in seconds. */
export type FinishedRequest = (req: Request, res: Response, seconds: number) => void;

/**
 * What every request gets before routing, as one middleware: helmet's security headers, an id, and
 * one `finish` listener that tells each observer (the access log, the HTTP metrics) how long the
 * answer took. One layer and one listener instead of four layers and two listeners, which cost more
 * per request than the work they do (docs/benchmarks.md).
 */
export function requestEnvelope(observers: readonly FinishedRequest[]): RequestHandler {
  const headers = helmetHeaders();
  return (req, res, next) => {
    setHeaders(res, headers);
    assignRequestId(req, res);
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const observe of observers) observe(req, res, seconds);
    });
    next();
  };
}
