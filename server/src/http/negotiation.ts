import { RunledgerError } from '@runledger/core';
import type { Request, Response } from 'express';
import { checkJsonBytes } from './json-bytes.js';
import type { RouteSpec } from './route-spec.js';

/**
 * Content negotiation for a declared route: the request's Content-Type against what the route reads
 * (415 otherwise), a raw JSON body's bytes, and whether the client prefers an HTML page to JSON.
 */

/** Answers 415 and returns false when the body is not of the declared type. */
export function acceptsRequestType(spec: RouteSpec, req: Request, res: Response): boolean {
  if (spec.body && req.is('application/json') === false) {
    res.status(415).json({ detail: 'Content-Type must be application/json' });
    return false;
  }
  if (spec.nonJsonBody && req.is(spec.nonJsonBody.contentType) === false) {
    res.status(415).json({ detail: `Content-Type must be ${spec.nonJsonBody.contentType}` });
    return false;
  }
  return true;
}

/** A rawBody route's bytes as JSON: malformed JSON is the same 400 the JSON parser gives. */
export function jsonOfBytes(bytes: unknown): unknown {
  const raw = Buffer.isBuffer(bytes) ? bytes : Buffer.alloc(0);
  try {
    checkJsonBytes(raw);
  } catch (error) {
    throw new RunledgerError('invalid_input', (error as Error).message);
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RunledgerError('invalid_input', 'request body is not valid JSON');
  }
}

export function prefersHtml(req: Request): boolean {
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}
