import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { canonicalJson } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { boundedRegExp } from './safe-pattern.js';

/**
 * `format` stays an annotation, as JSON Schema 2020-12 specifies by default; unknown keywords are
 * ignored like the spec says; schemas with `$id` are not registered, so two sheets may reuse an `$id`.
 */
const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  validateFormats: false,
  addUsedSchema: false,
  logger: false,
  code: { regExp: boundedRegExp },
});

/**
 * Compiled validators keyed by the sha256 of the schema's canonical JSON, not by a sheet id or hash
 * a caller supplies, so a mislabelled sheet can never be validated with another sheet's schema.
 * Bounded, and evicted schemas are dropped from ajv's own cache too, so the memory stays flat.
 */
const CACHE_MAX = 256;
const cache = new Map<string, { schema: object; validate: ValidateFunction }>();

/** Compiles a JSON Schema 2020-12 once to prove it compiles; throws ajv's error when it does not. */
export function assertSchemaCompiles(schema: object): void {
  try {
    ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
  }
}

/** The compiled validator of a required_output_schema, compiled once per distinct schema. */
export function validatorFor(schema: object): ValidateFunction {
  const key = sha256Hex(canonicalJson(schema));
  const cached = cache.get(key);
  if (cached) return cached.validate;
  const validate = ajv.compile(schema);
  if (cache.size >= CACHE_MAX) {
    const [oldestKey, oldest] = cache.entries().next().value ?? [];
    if (oldestKey !== undefined && oldest) {
      cache.delete(oldestKey);
      ajv.removeSchema(oldest.schema);
    }
  }
  cache.set(key, { schema, validate });
  return validate;
}
