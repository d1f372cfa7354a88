import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';

/**
 * The one rule for missing bodies: a route that declares a JSON body needs one, and zero bytes
 * (`Content-Length: 0`, an empty chunked body, or no body at all) is a missing body, answered 400,
 * never read as `{}`. A route that declares no body runs whatever is sent; its OpenAPI operation
 * says so with `x-runledger-body: none`.
 */
const EMPTY = Symbol('empty JSON body');

/** The JSON parser's `verify` hook: remembers that the body had no bytes. */
export function markEmptyBody(req: IncomingMessage, _res: unknown, bytes: Buffer): void {
  if (bytes.length === 0) (req as IncomingMessage & { [EMPTY]?: true })[EMPTY] = true;
}

export function bodyIsMissing(req: Request): boolean {
  return req.body === undefined || (req as Request & { [EMPTY]?: true })[EMPTY] === true;
}
