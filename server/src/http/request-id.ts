import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

// A caller's id is echoed only when it is short and plain, so it cannot inject into logs.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when plain, else a new UUID; echoed on the answer. */
export function assignRequestId(req: Request, res: Response): void {
  const given = req.headers['x-request-id'];
  req.id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.id);
}
