import { getRefId, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { AuthRequirement } from './auth.js';
import { ErrorBody } from './components.js';
import { operationIdOf } from './operation-id.js';
import type { AnyRouteDef } from './route-spec.js';

type PathConfig = Parameters<OpenAPIRegistry['registerPath']>[0];
type BodyContent = NonNullable<NonNullable<PathConfig['request']>['body']>['content'];
type BodySchema = Extract<BodyContent[string], { schema?: unknown }>['schema'];

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: malformed JSON, or a field that is missing, mistyped or not allowed',
  401: 'Missing, invalid or expired credentials',
  403: 'Authenticated but not allowed',
  404: 'Not found (or it belongs to another organization)',
  409: 'State conflict',
  413: 'Request body too large',
  415: 'Wrong Content-Type, charset or Content-Encoding for the request body',
  429: 'Rate limited; see Retry-After',
  500: 'Server error',
  503: 'Not configured, not ready, or storage unavailable for the moment (a full disk, the database unreachable): see Retry-After',
};

/**
 * The error statuses a route can answer: the ones it lists plus the ones its declaration implies.
 * Every route can answer 400, 413 and 415: the app's JSON parser runs before any route, so a
 * request of any method that sends `Content-Type: application/json` with malformed JSON (400), too
 * many bytes (413) or another charset or an unknown Content-Encoding (415) is refused there. Every
 * route can answer 503: storage may be full or unreachable for a moment (docs/operations.md).
 */
function errorStatusesOf(def: AnyRouteDef): number[] {
  const statuses = new Set<number>([400, 413, 415, 500, 503, ...(def.errors ?? [])]);
  if (def.auth !== 'none') statuses.add(401);
  if (def.auth === 'owner' || def.auth === 'user') statuses.add(403);
  return [...statuses].sort((a, b) => a - b);
}

function requireName(schema: unknown, what: string): void {
  if (getRefId(schema as Parameters<typeof getRefId>[0]) === undefined) {
    throw new Error(
      `${what} must use a named schema (name it in the API's components.ts: main-api/ or router-api/)`,
    );
  }
}

/** `X-Runner-Token` → `runnerToken`: the security scheme named after its header. */
function credentialScheme(header: string): string {
  const words = header.replace(/^x-/i, '').toLowerCase().split('-');
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** Who may call, in words: the operation's description ends with it. */
function callerOf(def: AnyRouteDef): string {
  if (def.credentialHeader) return `Needs the \`${def.credentialHeader}\` header.`;
  switch (def.auth) {
    case 'none':
      return 'Needs no credentials.';
    case 'user':
      return "Needs a signed-in person's JWT (an API key is refused).";
    case 'owner':
      return "Needs an organization owner's JWT.";
    case 'any':
      return 'Needs a JWT or an API key of the organization.';
    case 'worker':
      return "Needs the worker's token (`Authorization: Bearer <worker_token>`).";
  }
}

function descriptionOf(def: AnyRouteDef): string {
  const summary = /[.!?]$/.test(def.summary) ? def.summary : `${def.summary}.`;
  return [def.description ?? summary, callerOf(def)].join('\n\n');
}

function securityOf(auth: AuthRequirement): Array<Record<string, string[]>> {
  if (auth === 'none') return [];
  if (auth === 'worker') return [{ workerToken: [] }];
  if (auth === 'any') return [{ bearerAuth: [] }, { apiKeyHeader: [] }];
  return [{ bearerAuth: [] }];
}

function successOf(def: AnyRouteDef) {
  if (def.raw) {
    return {
      description: def.raw.description,
      content: { [def.raw.contentType]: { schema: { type: 'string' as const } } },
    };
  }
  if (!def.response) return { description: 'Done; no body' };
  return {
    description: 'Success',
    content: {
      'application/json': { schema: def.response },
      ...(def.html ? { 'text/html': { schema: { type: 'string' as const } } } : {}),
    },
  };
}

function requestOf(def: AnyRouteDef): PathConfig['request'] {
  return {
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
              [def.nonJsonBody.contentType]: { schema: def.nonJsonBody.schema as BodySchema },
            },
          },
        }
      : {}),
  };
}

/** A declared route's OpenAPI operation (and its credential's security scheme, when it has one). */
export function registerRoute(registry: OpenAPIRegistry, def: AnyRouteDef): void {
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
    errorStatusesOf(def).map((status) => [
      status,
      {
        description: ERROR_TEXT[status] ?? 'Error',
        content: {
          'application/json': { schema: ErrorBody },
          // The error handler renders a route's page for its own errors; a 500 stays JSON.
          ...(def.errorPage && status < 500
            ? { 'text/html': { schema: { type: 'string' as const } } }
            : {}),
        },
      },
    ]),
  );
  const success = successOf(def);
  registry.registerPath({
    method: def.method,
    path: def.path,
    operationId: def.operationId ?? operationIdOf(def.method, def.path),
    summary: def.summary,
    description: descriptionOf(def),
    tags: [def.tag],
    security: def.credentialHeader
      ? [{ [credentialScheme(def.credentialHeader)]: [] }]
      : securityOf(def.auth),
    'x-runledger-auth': def.auth,
    // A route without a declared body runs whatever is sent (see empty-body.ts).
    ...(def.body || def.nonJsonBody ? {} : { 'x-runledger-body': 'none' }),
    request: requestOf(def),
    responses: {
      ...Object.fromEntries(
        [def.status, ...(def.alsoStatus ?? [])].map((status) => [status, success]),
      ),
      ...(def.noContent !== undefined ? { 204: { description: def.noContent } } : {}),
      ...errorResponses,
    },
  });
}
