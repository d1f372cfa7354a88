import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One line per request: id, method, declared route (never the raw path or query string, which may carry a token),
 * status and duration. Bodies and headers are never logged.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          req_id: req.id,
          method: req.method,
          // An unmatched path may carry a share token (`/share/<token>/typo`), so it is never logged.
          route: typeof res.locals.route === 'string' ? res.locals.route : '(unmatched)',
          status: res.statusCode,
          duration_ms: Math.round(durationMs * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
