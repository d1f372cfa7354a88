import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** Hostile strings: escapes, prototypes, huge, unicode, numbers-as-text. */
const NASTY = fc.constantFrom(
  '',
  ' ',
  '%ZZ',
  '%E0%A4%A',
  '__proto__',
  'constructor',
  '1e2',
  '0x10',
  '-1',
  '5.0',
  '+5',
  'null',
  '\u0000',
  '\uD800',
  '../../etc/passwd',
  '<script>',
  'x'.repeat(5000),
);

/**
 * Values for a JSON Schema from an OpenAPI document: mostly valid (so requests reach the handlers),
 * sometimes not (wrong types, out of range, hostile strings, unknown and prototype keys).
 */
export function arbitraryOf(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const invalid = fc.oneof(fc.jsonValue({ maxDepth: 2 }), NASTY);
  return fc.oneof(
    { weight: 4, arbitrary: validOf(schema, components, depth) },
    { weight: 1, arbitrary: invalid },
  );
}

function validOf(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  depth: number,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant({});
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    return validOf(components[ref.replace('#/components/schemas/', '')], components, depth + 1);
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validOf(s, components, depth + 1)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? (schema.type[0] as string) : schema.type;
  switch (type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = Math.min((schema.maxLength as number | undefined) ?? 40, min + 40);
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.pattern === '^(0|[1-9][0-9]{0,14})$') return fc.nat(300).map(String);
      return fc.string({ minLength: min, maxLength: max });
    }
    case 'integer':
      return fc.integer({
        min: (schema.minimum as number | undefined) ?? -5,
        max: Math.min((schema.maximum as number | undefined) ?? 1000, 1_000_000),
      });
    case 'number':
      return fc.double({ min: -10, max: 10_000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validOf(schema.items as Schema, components, depth + 1), {
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 3, 3),
      });
    case 'object':
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        shape[name] = validOf(property, components, depth + 1);
      }
      return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
    }
  }
}

/** A JSON body as text: the value as is, or with an unknown or a prototype key put in front. */
export function bodyTextOf(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc
    .tuple(value, fc.constantFrom(null, null, null, 'unknown_field', '__proto__', 'constructor'))
    .map(([v, extra]) => {
      const text = JSON.stringify(v) ?? 'null';
      if (extra === null || !text.startsWith('{')) return text;
      const rest = text === '{}' ? '}' : `,${text.slice(1)}`;
      return `{"${extra}":{"admin":true}${rest}`;
    });
}
