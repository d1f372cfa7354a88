import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { Definition } from './components.js';
import { fixNullableRefs } from './nullable-refs.js';
import { assertUniqueOperationIds } from './operation-id.js';
import type { Route } from './route.js';
import { withoutUnusedSchemas } from './unused-components.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** What distinguishes one served API description from another (the main API, the router API). */
export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  /**
   * What each tag (a route's `tag`) covers. A tag used by a route and missing here still gets a
   * generic description, so a new area never breaks the document; give it a real one here.
   */
  tags: Record<string, string>;
  /** The named schemas of this API; called before routes register so their names are known. */
  components(): Definition[];
  securitySchemes(registry: OpenAPIRegistry): void;
}

/** Tags in the order their first route appears, each with its description. */
function tagsOf(document: OpenApiDocument, api: ApiDescription) {
  const names = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      const tags = (operation as { tags?: unknown }).tags;
      if (Array.isArray(tags)) for (const tag of tags) names.add(String(tag));
    }
  }
  return [...names].map((name) => ({
    name,
    description: api.tags[name] ?? `Operations of the ${name} area.`,
  }));
}

/** Builds the OpenAPI 3.1 description from the same declarations that mount the routes. */
export function openApiDocument(routes: readonly Route[], api: ApiDescription): OpenApiDocument {
  // First: naming the schema instances is what lets route registration check for names.
  const components = api.components();
  const registry = new OpenAPIRegistry();
  api.securitySchemes(registry);
  for (const route of routes) route.register(registry);
  const generated = new OpenApiGeneratorV31([
    ...components,
    ...registry.definitions,
  ]).generateDocument({
    openapi: '3.1.0',
    info: {
      title: api.title,
      version: api.version,
      description: api.description,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // Relative: a client resolves paths against the address it fetched this document from, so one
    // document serves behind any proxy or port (PUBLIC_BASE_URL is for links in e-mails and receipts).
    servers: [{ url: '/' }],
  });
  const document = withoutUnusedSchemas(fixNullableRefs(generated));
  assertUniqueOperationIds(document);
  return { ...document, tags: tagsOf(document, api) };
}
