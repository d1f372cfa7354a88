import type { Actor, Runledger, WorkerActor } from '@runledger/core';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AuthRequirement } from './auth.js';
import type { JwtSigner } from './jwt.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';
export type SuccessStatus = 200 | 201 | 202 | 204;
/** Statuses a route may answer besides the ones its declaration implies (400, 401, 403, 413, 415, 500). */
export type ExtraErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/** A request body that is not JSON (a multipart upload): documented here, parsed by the handler. */
export interface NonJsonBody {
  contentType: string;
  /** JSON Schema of the parts, for the OpenAPI document. */
  schema: Record<string, unknown>;
}

/** What a route declares, apart from its handler; see docs/server.md for how each field is used. */
export interface RouteSpec {
  method: Method;
  /** OpenAPI form, `/projects/{project_id}`. */
  path: string;
  /**
   * The path parameter, the last one, that spans the rest of the path, slashes included (a C2SP
   * tile path such as `0/x001/234.p/7`); the handler gets it as one string.
   */
  restParam?: string;
  summary: string;
  /** More than the summary says; the OpenAPI description also states who may call (openapi-path.ts). */
  description?: string;
  /** Overrides the operationId derived from method and path (operation-id.ts). */
  operationId?: string;
  tag: string;
  auth: AuthRequirement;
  body?: z.ZodType;
  query?: z.ZodObject;
  params?: z.ZodObject;
  status: SuccessStatus;
  /** Other success statuses the handler may pick with setStatus; same body schema. */
  alsoStatus?: readonly SuccessStatus[];
  /** A named schema (see main-api/components.ts, router-api/components.ts); absent for 204 and for `raw` answers. */
  response: z.ZodType | undefined;
  /** The handler writes the answer itself (a file, a PDF, a stream) with this Content-Type. */
  raw?: { contentType: string; description: string };
  /** Mutually exclusive with `body`. */
  nonJsonBody?: NonJsonBody;
  errors?: readonly ExtraErrorStatus[];
  /**
   * When given, the handler may return null and the route then answers 204 with no body; the text
   * says when (it becomes the 204's description).
   */
  noContent?: string;
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
   * A client that prefers text/html gets an error of this route as this page instead of JSON (a
   * browser following a share link); documented as text/html beside JSON on every error status.
   */
  errorPage?: ErrorPage;
}

/** An error as an HTML page, with the Content-Security-Policy that page is served under. */
export interface ErrorPage {
  csp: string;
  render(status: number, detail: string): string;
}

/** The schemas and choices of one declaration that type its handler (defineRoute infers them). */
export interface RouteTypes {
  body: z.ZodType | undefined;
  query: z.ZodObject | undefined;
  params: z.ZodObject | undefined;
  response: z.ZodType | undefined;
  auth: AuthRequirement;
  noContent: string | undefined;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

type ActorOf<Au> = Au extends 'none' ? null : Au extends 'worker' ? WorkerActor : Actor;

/** What a handler may return: the response's input type, plus null when the route declares noContent. */
type HandlerResult<T extends RouteTypes> =
  | (T['response'] extends z.ZodType ? z.input<T['response']> : void)
  | (T['noContent'] extends string ? null : never);

export interface RouteContext<T extends RouteTypes = RouteTypes> {
  actor: ActorOf<T['auth']>;
  body: Out<T['body']>;
  query: Out<T['query']>;
  params: Out<T['params']>;
  req: Request;
  res: Response;
  /** Answers with one of the route's `alsoStatus` instead of `status` (a repeated mint is 200, not 201). */
  setStatus(status: SuccessStatus): void;
}

/** A declaration: the spec with its typed schemas, the handler and, optionally, an HTML page. */
export interface RouteDef<T extends RouteTypes> extends RouteSpec {
  auth: T['auth'];
  body?: T['body'];
  query?: T['query'];
  params?: T['params'];
  response: T['response'];
  noContent?: T['noContent'];
  handler: (ctx: RouteContext<T>) => Promise<HandlerResult<T>>;
  /**
   * When given, a client that prefers text/html gets this page instead of JSON (after the JSON is
   * checked). `res.locals` carries anything extra the handler put there for the page.
   */
  html?: (result: Out<T['response']>, res: Response) => string;
}

/** Any declaration, once its types have been checked at the call site. */
export type AnyRouteDef = RouteSpec & {
  handler: (ctx: RouteContext) => Promise<unknown>;
  html?: (result: unknown, res: Response) => string;
};

export interface HttpDeps {
  runledger: Runledger;
  signer: JwtSigner;
}
