import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Router } from 'express';
import { mountRawParser, mountRoute } from './mount.js';
import { registerRoute } from './openapi-path.js';
import type { z } from 'zod';
import type { AuthRequirement } from './auth.js';
import type { AnyRouteDef, HttpDeps, Method, RouteDef } from './route-spec.js';

export type { HttpDeps, RouteContext } from './route-spec.js';

/** A declared route: one declaration yields the Express handler and the OpenAPI operation. */
export interface Route {
  method: Method;
  path: string;
  /** Whether a parameter of the path spans several segments (`restParam`). */
  spansSegments: boolean;
  mount(router: Router, deps: HttpDeps): void;
  /** Only for `rawBody` routes: mounts a raw-bytes parser, to run before the app's JSON parser. */
  mountRawParser?(router: Router, limit: number): void;
  register(registry: OpenAPIRegistry): void;
}

/**
 * Declares a route. The spec's schemas type the handler's context and result; the same declaration
 * then mounts (mount.ts), checks the answer (respond.ts) and documents itself (openapi-path.ts).
 */
export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  Au extends AuthRequirement = AuthRequirement,
  NC extends string | undefined = undefined,
>(def: RouteDef<{ body: B; query: Q; params: P; response: R; auth: Au; noContent: NC }>): Route {
  // The call site checked the handler against the spec; past here a route is any route.
  const route = def as unknown as AnyRouteDef;
  return {
    method: route.method,
    path: route.path,
    spansSegments: route.restParam !== undefined,
    mount: (router, deps) => mountRoute(route, router, deps),
    ...(route.rawBody
      ? { mountRawParser: (router: Router, limit: number) => mountRawParser(route, router, limit) }
      : {}),
    register: (registry) => registerRoute(registry, route),
  };
}
