import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import { RunledgerError } from '@runledger/core';
import { authenticate } from './auth.js';
import { bodyIsMissing } from './empty-body.js';
import { acceptsRequestType, jsonOfBytes } from './negotiation.js';
import { checkQueryEscapes, checkRequestValue } from './request-text.js';
import { respond } from './respond.js';
import type { AnyRouteDef, HttpDeps, RouteContext, SuccessStatus } from './route-spec.js';
import { validationError } from './validation.js';

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  checkRequestValue(value, where);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data;
}

/** `/projects/{project_id}` → `/projects/:project_id`; the rest parameter becomes `*name`. */
function expressPathOf(def: AnyRouteDef): string {
  const rest = def.restParam;
  const path = rest === undefined ? def.path : def.path.replace(`{${rest}}`, `*${rest}`);
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Path parameters as strings: a rest parameter's segments joined with `/`. */
const pathParams = (req: Request) =>
  Object.fromEntries(
    Object.entries(req.params).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]),
  );

/** One request through a declared route: content type, authentication, precondition, parsing, handler, answer. */
async function run(def: AnyRouteDef, req: Request, res: Response, deps: HttpDeps): Promise<void> {
  res.locals.route = def.path;
  if (def.errorPage) res.locals.errorPage = def.errorPage;
  if (!acceptsRequestType(def, req, res)) return;
  const actor = await authenticate(req, def.auth, deps.runledger, deps.signer);
  def.precondition?.(req);
  if (def.query) checkQueryEscapes(req);
  if (def.body && !def.rawBody && bodyIsMissing(req)) {
    throw new RunledgerError('invalid_input', 'request body is required: send a JSON object');
  }
  let status: SuccessStatus = def.status;
  const allowed = new Set<SuccessStatus>([def.status, ...(def.alsoStatus ?? [])]);
  const ctx = {
    actor,
    body: def.body
      ? parseOrThrow(def.body, def.rawBody ? jsonOfBytes(req.body) : req.body, 'body')
      : undefined,
    query: def.query ? parseOrThrow(def.query, { ...req.query }, 'query') : undefined,
    params: def.params ? parseOrThrow(def.params, pathParams(req), 'path') : undefined,
    req,
    res,
    setStatus(next: SuccessStatus) {
      if (!allowed.has(next)) throw new Error(`${def.path} does not declare status ${next}`);
      status = next;
    },
  } as RouteContext;
  const result = await def.handler(ctx);
  // Read after the handler: it may have picked another declared status.
  respond(def, req, res, status, result);
}

/** Mounts a declared route on an Express router; errors go to the app's one error handler. */
export function mountRoute(def: AnyRouteDef, router: Router, deps: HttpDeps): void {
  router[def.method](expressPathOf(def), (req, res, next) => {
    run(def, req, res, deps).catch(next);
  });
}

/** For `rawBody` routes: a raw-bytes parser on the route's path, mounted before the app's JSON parser. */
export function mountRawParser(def: AnyRouteDef, router: Router, limit: number): void {
  router[def.method](expressPathOf(def), express.raw({ type: 'application/json', limit }));
}
