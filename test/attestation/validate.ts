import { Ajv2020 } from 'ajv/dist/2020.js';
import { DSSE_ENVELOPE, IN_TOTO_STATEMENT_V1, SLSA_VSA_V1_PREDICATE } from './schemas.js';

// strictRequired off: the specs' "one of uri, digest, content" is required inside anyOf branches.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
// The two string formats the specifications use, checked here without a formats package.
ajv.addFormat('uri', (text: string) => URL.canParse(text) && /^[a-z][a-z0-9+.-]*:/i.test(text));
ajv.addFormat('date-time', (text: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text),
);

const validators = {
  envelope: ajv.compile(DSSE_ENVELOPE),
  statement: ajv.compile(IN_TOTO_STATEMENT_V1),
  vsa: ajv.compile(SLSA_VSA_V1_PREDICATE),
};

/** The schema errors of an envelope and its statement (empty when all three schemas accept them). */
export function schemaErrors(envelope: unknown): string[] {
  const errors: string[] = [];
  const check = (name: keyof typeof validators, value: unknown) => {
    if (!validators[name](value))
      errors.push(`${name}: ${ajv.errorsText(validators[name].errors)}`);
  };
  check('envelope', envelope);
  const payload = (envelope as { payload?: unknown }).payload;
  if (typeof payload !== 'string') return errors;
  const statement = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as {
    predicate?: unknown;
  };
  check('statement', statement);
  check('vsa', statement.predicate);
  return errors;
}

export function statementOf<T = Record<string, unknown>>(envelope: { payload: string }): T {
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as T;
}
