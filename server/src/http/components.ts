import {
  getRefId,
  zodToOpenAPIRegistry,
  type OpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/** One entry for the OpenAPI generator: a named schema, a path, a component. */
export type Definition = OpenAPIRegistry['definitions'][number];

/** The body of every non-2xx response, on every API. */
export const ErrorBody = z.object({ detail: z.string() });

/**
 * Names the schema instances themselves (not copies), so wherever core nests one (Role inside
 * Member) the document says `$ref: Role`, and returns them as generator definitions. A schema keeps
 * the first name it gets: the instances are shared by every API description in the process.
 * (registry.register would need zod's prototype patched before core's schemas were built; tagging
 * the instances needs no patch.)
 */
export function namedDefinitions(all: Record<string, z.ZodType>): Definition[] {
  for (const [name, schema] of Object.entries(all)) {
    if (getRefId(schema) === undefined) {
      zodToOpenAPIRegistry.add(schema, { _internal: { refId: name } });
    }
  }
  return Object.values(all).map((schema) => ({ type: 'schema' as const, schema }));
}
