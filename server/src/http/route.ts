import { RunledgerError, type Actor, type Runledger, type WorkerActor } from '@runledger/core';
import { getRefId, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import { authenticate, type AuthRequirement } from './auth.js';
import { ErrorBody } from './components.js';
import { bodyIsMissing } from './empty-body.js';
import type { JwtSigner } from './jwt.js';
import { validationError } from './validation.js';

type Method = 'get' | 'post' | 'patch' | 'delete';
type SuccessStatus = 200 | 201 | 202 | 204;
/** Statuses a route may answer besides the ones its declaration implies (400, 401, 403, 413, 415, 500). */
type ExtraErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

type PathConfig = Parameters<OpenAPIRegistry['registerPath']>[0];
type BodyContent = NonNullable<NonNullable<PathConfig['request']>['body']>['content'];
type BodySchema = Extract<BodyContent[string], { schema?: unknown }>['schema'];

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Result<S> = S extends z.ZodType ? z.input<S> : void;
type ActorFor<Au> = Au extends 'none' ? null : Au extends 'worker' ? WorkerActor : Actor;

export interface RouteContext<B, Q, P, A = Actor> {
  actor: A;
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
  /** Answers with one of the route's `alsoStatus` instead of `status` (a repeated mint is 200, not 201). */
  setStatus(status: SuccessStatus): void;
}

/** A request body that is not JSON (a multipart upload): documented here, parsed by the handler. */
export interface NonJsonBody {
  contentType: string;
  /** JSON Schema of the parts, for the OpenAPI document. */
  schema: Record<string, unknown>;
}

export interface RouteDef<
  B extends z.ZodType | undefined,
  Q extends z.ZodObject | undefined,
  P extends z.ZodObject | undefined,
  R extends z.ZodType | undefined,
  Au extends AuthRequirement,
  NC extends string | undefined = undefined,
> {
  method: Method;
  /** OpenAPI form, `/projects/{project_id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Au;
  body?: B;
  query?: Q;
  params?: P;
  status: SuccessStatus;
  /** Other success statuses the handler may pick with setStatus; same body schema. */
  alsoStatus?: readonly SuccessStatus[];
  /** A named schema (see components.ts); absent for 204 and for `raw` answers. */
  response: R;
  /** The handler writes the answer itself (a file, a PDF, a stream) with this Content-Type. */
  raw?: { contentType: string; description: string };
  /** Mutually exclusive with `body`. */
  nonJsonBody?: NonJsonBody;
  errors?: readonly ExtraErrorStatus[];
  /**
   * When given, the handler may return null and the route then answers 204 with no body; the text
   * says when (it becomes the 204's description).
   */
  noContent?: NC;
  /** Checked after authentication and before the body is read, e.g. an internal credential (503 when unset). */
  precondition?: (req: Request) => void;
  /**
   * The request header of an internal credential the precondition checks (`X-Runner-Token`, …): it
   * becomes an apiKey security scheme of the operation, so the description says what to send.
   */
  credentialHeader?: string;
  /**
   * The JSON body arrives as its exact bytes: `req.body` is a Buffer while `precondition` runs (a
   * signature over the raw body), and is parsed as JSON for `body` afterwards.
   */
  rawBody?: true;
  /**
   * When given, a client that prefers text/html gets this page instead of JSON (after the JSON is
   * checked). `res.locals` carries anything extra the handler put there for the page.
   */
  html?: (result: Out<R>, res: Response) => string;
  handler: (
    ctx: RouteContext<Out<B>, Out<Q>, Out<P>, ActorFor<Au>>,
  ) => Promise<Result<R> | (NC extends string ? null : never)>;
}

export interface HttpDeps {
  runledger: Runledger;
  signer: JwtSigner;
}

/** A declared route: one declaration yields the Express handler and the OpenAPI operation. */
export interface Route {
  method: Method;
  path: string;
  mount(router: Router, deps: HttpDeps): void;
  /** Only for `rawBody` routes: mounts a raw-bytes parser, to run before the app's JSON parser. */
  mountRawParser?(router: Router, limit: number): void;
  register(registry: OpenAPIRegistry): void;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: a field is missing, has the wrong type, or is not allowed',
  401: 'Missing, invalid or expired credentials',
  403: 'Authenticated but not allowed',
  404: 'Not found (or it belongs to another organization)',
  409: 'State conflict',
  413: 'Request body too large',
  415: 'Wrong Content-Type for the request body',
  429: 'Rate limited; see Retry-After',
  500: 'Server error',
  503: 'Not configured',
};

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data;
}

/** A rawBody route's bytes as JSON: malformed JSON is the same 400 the JSON parser gives. */
function jsonOfBytes(bytes: unknown): unknown {
  const text = Buffer.isBuffer(bytes) ? bytes.toString('utf8') : '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RunledgerError('invalid_input', 'request body is not valid JSON');
  }
}

function requireName(schema: z.ZodType, what: string): void {
  if (getRefId(schema) === undefined) {
    throw new Error(`${what} must use a named schema (register it in components.ts)`);
  }
}

export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  Au extends AuthRequirement = AuthRequirement,
  NC extends string | undefined = undefined,
>(def: RouteDef<B, Q, P, R, Au, NC>): Route {
  const expressPath = def.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

  const errorStatuses = new Set<number>([500, ...(def.errors ?? [])]);
  if (def.body || def.query || def.params) errorStatuses.add(400);
  if (def.body || def.nonJsonBody) [400, 413, 415].forEach((s) => errorStatuses.add(s));
  if (def.auth !== 'none') errorStatuses.add(401);
  if (def.auth === 'owner' || def.auth === 'user') errorStatuses.add(403);

  async function run(req: Request, res: Response, deps: HttpDeps): Promise<void> {
    res.locals.route = def.path;
    if (def.body && req.is('application/json') === false) {
      res.status(415).json({ detail: 'Content-Type must be application/json' });
      return;
    }
    if (def.nonJsonBody && req.is(def.nonJsonBody.contentType) === false) {
      res.status(415).json({ detail: `Content-Type must be ${def.nonJsonBody.contentType}` });
      return;
    }
    const actor = await authenticate(req, def.auth, deps.runledger, deps.signer);
    def.precondition?.(req);
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
      params: def.params ? parseOrThrow(def.params, { ...req.params }, 'path') : undefined,
      req,
      res,
      setStatus(next: SuccessStatus) {
        if (!allowed.has(next)) throw new Error(`${def.path} does not declare status ${next}`);
        status = next;
      },
    } as RouteContext<Out<B>, Out<Q>, Out<P>, ActorFor<Au>>;
    const result = await def.handler(ctx);
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
    if (def.html && req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.type('html').send(def.html(checked.data as Out<R>, res));
      return;
    }
    res.json(checked.data);
  }

  return {
    method: def.method,
    path: def.path,
    mount(router, deps) {
      router[def.method](expressPath, (req, res, next) => {
        run(req, res, deps).catch(next);
      });
    },
    ...(def.rawBody
      ? {
          mountRawParser(router: Router, limit: number) {
            router[def.method](expressPath, express.raw({ type: 'application/json', limit }));
          },
        }
      : {}),
    register(registry) {
      if (def.credentialHeader) {
        registry.registerComponent('securitySchemes', credentialScheme(def.credentialHeader), {
          type: 'apiKey',
          in: 'header',
          name: def.credentialHeader,
        });
      }
      if (def.response) requireName(def.response, `${def.method} ${def.path} response`);
      if (def.body) requireName(def.body, `${def.method} ${def.path} body`);
      const errorResponses = Object.fromEntries(
        [...errorStatuses]
          .sort((a, b) => a - b)
          .map((status) => [
            status,
            {
              description: ERROR_TEXT[status] ?? 'Error',
              content: { 'application/json': { schema: ErrorBody } },
            },
          ]),
      );
      const success = def.raw
        ? {
            description: def.raw.description,
            content: { [def.raw.contentType]: { schema: { type: 'string' as const } } },
          }
        : def.response
          ? {
              description: 'Success',
              content: {
                'application/json': { schema: def.response },
                ...(def.html ? { 'text/html': { schema: { type: 'string' as const } } } : {}),
              },
            }
          : { description: 'Done; no body' };
      registry.registerPath({
        method: def.method,
        path: def.path,
        summary: def.summary,
        ...(def.description ? { description: def.description } : {}),
        tags: [def.tag],
        security: def.credentialHeader
          ? [{ [credentialScheme(def.credentialHeader)]: [] }]
          : securityOf(def.auth),
        'x-runledger-auth': def.auth,
        // A route without a declared body runs whatever is sent (see empty-body.ts).
        ...(def.body || def.nonJsonBody ? {} : { 'x-runledger-body': 'none' }),
        request: {
          ...(def.params ? { params: def.params } : {}),
          ...(def.query ? { query: def.query } : {}),
          ...(def.body
            ? { body: { required: true, content: { 'application/json': { schema: def.body } } } }
            : {}),
          ...(def.nonJsonBody
            ? {
                body: {
                  required: true,
                  content: {
                    [def.nonJsonBody.contentType]: {
                      schema: def.nonJsonBody.schema as BodySchema,
                    },
                  },
                },
              }
            : {}),
        },
        responses: {
          ...Object.fromEntries(
            [def.status, ...(def.alsoStatus ?? [])].map((status) => [status, success]),
          ),
          ...(def.noContent !== undefined ? { 204: { description: def.noContent } } : {}),
          ...errorResponses,
        },
      });
    },
  };
}

/** `X-Runner-Token` → `runnerToken`: the security scheme named after its header. */
function credentialScheme(header: string): string {
  const words = header.replace(/^x-/i, '').toLowerCase().split('-');
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

function securityOf(auth: AuthRequirement): Array<Record<string, string[]>> {
  if (auth === 'none') return [];
  if (auth === 'worker') return [{ workerToken: [] }];
  if (auth === 'any') return [{ bearerAuth: [] }, { apiKeyHeader: [] }];
  return [{ bearerAuth: [] }];
}
