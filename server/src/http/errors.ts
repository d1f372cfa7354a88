import { RunledgerError, StorageFaultError, type RunledgerErrorCode } from '@runledger/core';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { bodyReadError } from './body-errors.js';
import { prefersHtml } from './negotiation.js';
import type { ErrorPage } from './route-spec.js';
// Brings in the Request.id augmentation.
import type {} from './request-id.js';

export const STATUS_OF: Record<RunledgerErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** A 429 that also tells the client when to come back. */
export class RateLimitedError extends RunledgerError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('rate_limited', 'too many requests, try again later');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The stable `event` names of the security log (docs/security.md, "Security events"). */
const SECURITY_EVENTS: Partial<Record<RunledgerErrorCode, string>> = {
  unauthenticated: 'auth.failed',
  forbidden: 'authz.denied',
};

/**
 * Failed authentication and refused actions as structured warnings a SIEM can match on `event`.
 * Only our own message, the declared route and ids: never a header, a token or the raw path.
 */
function securityEvent(logger: Logger, error: RunledgerError, req: Request, res: Response) {
  const event = SECURITY_EVENTS[error.code];
  if (event === undefined) return;
  const actorId: unknown = res.locals.actor_id;
  logger.warn(
    {
      event,
      req_id: req.id,
      method: req.method,
      route: typeof res.locals.route === 'string' ? res.locals.route : '(unmatched)',
      ip: req.ip,
      ...(typeof actorId === 'string' ? { actor_id: actorId } : {}),
      reason: error.message,
    },
    event,
  );
}

export const notFoundRoute: RequestHandler = (req, res) => {
  // The path is not echoed: a mistyped share link would hand its token back into caches and logs.
  res.status(404).json({ detail: `no route for ${req.method} here` });
};

/**
 * The one place an error becomes a response. Only our own messages reach the client;
 * anything unexpected is logged with its stack and answered with a generic 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof RunledgerError) {
      securityEvent(logger, error, req, res);
      if (error instanceof RateLimitedError) {
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      // A full disk or a lost database (docs/operations.md, "Storage faults"): the driver's error
      // for the log, a 503 with Retry-After for the client.
      if (error instanceof StorageFaultError) {
        logger.warn({ err: error.cause, kind: error.kind, req_id: req.id }, 'storage fault');
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      const status = STATUS_OF[error.code];
      // A route that has a page for browsers (the share page) gets its error as a page too.
      const page = res.locals.errorPage as ErrorPage | undefined;
      if (page !== undefined && prefersHtml(req)) {
        res.setHeader('Content-Security-Policy', page.csp);
        res.status(status).type('html').send(page.render(status, error.message));
        return;
      }
      res.status(status).json({ detail: error.message });
      return;
    }
    // The router's URIError for a malformed percent-escape carries the raw segment (a share token,
    // say) in its message: answered as bad input and never logged.
    if (error instanceof URIError) {
      res.status(400).json({ detail: 'the path has a malformed percent-escape' });
      return;
    }
    const parser = bodyReadError(error);
    if (parser) {
      res.status(parser.status).json({ detail: parser.detail });
      return;
    }
    // The declared route, never the raw path: a path may carry a share token.
    const route = typeof res.locals.route === 'string' ? res.locals.route : '(unmatched)';
    logger.error({ err: error, req_id: req.id, method: req.method, route }, 'unhandled');
    res.status(500).json({ detail: 'internal server error' });
  };
}
