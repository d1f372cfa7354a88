type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `{type: [..., 'null'], enum?: [...]}`: the part zod-to-openapi adds for `.nullable()`. */
function isNullMarker(value: unknown): boolean {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.every((key) => key === 'type' || key === 'enum') &&
    Array.isArray(value.type) &&
    value.type.includes('null')
  );
}

function isBareRef(value: unknown): value is { $ref: string } {
  return isObject(value) && Object.keys(value).length === 1 && typeof value.$ref === 'string';
}

/**
 * zod-to-openapi writes `Named.nullable()` as `allOf: [{$ref}, {type: [..., 'null']}]`, and null fails
 * the `$ref` branch of that allOf, so the document would reject the very nulls the server sends
 * (a run read before audit has `verdict: null`). Rewrites each such node, in place, to
 * `anyOf: [{$ref}, {type: 'null'}]`, keeping any sibling keys (description, example).
 */
export function fixNullableRefs<T>(document: T): T {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isObject(node)) return;
    const allOf = node.allOf;
    if (
      Array.isArray(allOf) &&
      allOf.length === 2 &&
      isBareRef(allOf[0]) &&
      isNullMarker(allOf[1]) &&
      node.anyOf === undefined
    ) {
      delete node.allOf;
      node.anyOf = [allOf[0], { type: 'null' }];
    }
    Object.values(node).forEach(visit);
  };
  visit(document);
  return document;
}
