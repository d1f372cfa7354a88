type Json = Record<string, unknown>;

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/** Names of the schema components a node refers to, directly. */
function refsIn(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, into));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const match = SCHEMA_REF.exec(value);
        if (match) into.add(decodeURIComponent(match[1]!));
      } else refsIn(value, into);
    }
  }
}

/**
 * Drops the schema components no operation reaches, directly or through other schemas. Names are
 * given to schemas for every API at once (an enumeration core exports gets its name in each
 * document), so without this the main document would carry the router's enumerations unused.
 */
export function withoutUnusedSchemas<T extends { paths?: unknown; components?: object }>(
  document: T,
): T {
  const schemas = (document.components as { schemas?: Json } | undefined)?.schemas;
  if (!schemas) return document;
  const reached = new Set<string>();
  refsIn(document.paths, reached);
  const queue = [...reached];
  while (queue.length > 0) {
    const next = new Set<string>();
    refsIn(schemas[queue.pop()!], next);
    for (const name of next) {
      if (!reached.has(name)) {
        reached.add(name);
        queue.push(name);
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
