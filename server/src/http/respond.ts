import type { Request, Response } from 'express';
import { prefersHtml } from './negotiation.js';
import type { AnyRouteDef, SuccessStatus } from './route-spec.js';

/**
 * Writes a handler's result: 204 for a declared noContent null, nothing for a raw route (the handler
 * wrote the answer), an empty answer without a response schema, else the checked JSON (or its page).
 */
export function respond(
  def: AnyRouteDef,
  req: Request,
  res: Response,
  status: SuccessStatus,
  result: unknown,
): void {
  if (result === null && def.noContent !== undefined) {
    res.status(204).end();
    return;
  }
  if (def.raw) return;
  if (!def.response) {
    res.status(status).end();
    return;
  }
  // Responses are checked on the way out, so a field or enum that drifts from the schema is a 500, not a silent change.
  const checked = def.response.safeParse(result);
  if (!checked.success) {
    throw new Error(
      `response of ${def.method.toUpperCase()} ${def.path} does not match its schema`,
      {
        cause: checked.error,
      },
    );
  }
  res.status(status);
  if (def.html && prefersHtml(req)) {
    res.type('html').send(def.html(checked.data, res));
    return;
  }
  sendJson(req, res, checked.data);
}

/**
 * `res.json` for GET and HEAD, whose ETag lets a client revalidate (304). Any other method's answer
 * is never revalidated, so it is written without one: Express would hash every body for it.
 */
function sendJson(req: Request, res: Response, data: unknown): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.json(data);
    return;
  }
  const body = JSON.stringify(data);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
