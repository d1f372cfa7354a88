import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { componentDefinitions, registerSecuritySchemes } from './components.js';
import { fixNullableRefs } from './nullable-refs.js';
import type { Route } from './route.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;
type Definition = OpenAPIRegistry['definitions'][number];

/** What distinguishes one served API description from another (the main API, the router API). */
export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  /** The named schemas of this API; called before routes register so their names are known. */
  components(): Definition[];
  securitySchemes(registry: OpenAPIRegistry): void;
}

export const MAIN_API: ApiDescription = {
  title: 'runledger',
  version: '0.1.0',
  description:
    'Audits units of work against versioned rulebooks and proves the results with hash-chained receipts. ' +
    'Every non-2xx response is {detail}. See docs/http.md.',
  components: componentDefinitions,
  securitySchemes: registerSecuritySchemes,
};

/** Builds the OpenAPI 3.1 description from the same declarations that mount the routes. */
export function openApiDocument(
  routes: readonly Route[],
  serverUrl: string,
  api: ApiDescription = MAIN_API,
): OpenApiDocument {
  // First: naming the schema instances is what lets route registration check for names.
  const components = api.components();
  const registry = new OpenAPIRegistry();
  api.securitySchemes(registry);
  for (const route of routes) route.register(registry);
  const document = new OpenApiGeneratorV31([
    ...components,
    ...registry.definitions,
  ]).generateDocument({
    openapi: '3.1.0',
    info: { title: api.title, version: api.version, description: api.description },
    servers: [{ url: serverUrl }],
  });
  return fixNullableRefs(document);
}
