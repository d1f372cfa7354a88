import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { componentDefinitions, registerSecuritySchemes } from './components.js';
import { fixNullableRefs } from './nullable-refs.js';
import type { Route } from './route.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** Builds the OpenAPI 3.1 description from the same declarations that mount the routes. */
export function openApiDocument(routes: readonly Route[], serverUrl: string): OpenApiDocument {
  // First: naming the schema instances is what lets route registration check for names.
  const components = componentDefinitions();
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  for (const route of routes) route.register(registry);
  const document = new OpenApiGeneratorV31([
    ...components,
    ...registry.definitions,
  ]).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'runledger',
      version: '0.1.0',
      description:
        'Audits units of work against versioned rulebooks and proves the results with hash-chained receipts. ' +
        'Every non-2xx response is {detail}. See docs/http.md.',
    },
    servers: [{ url: serverUrl }],
  });
  return fixNullableRefs(document);
}
