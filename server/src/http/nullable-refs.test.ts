import { OpenApiGeneratorV31, zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixNullableRefs } from './nullable-refs.js';

const Named = z.object({ a: z.string() });
const Level = z.enum(['low', 'high']);
const Holder = z.object({
  obj: Named.nullable(),
  level: Level.nullable(),
  plain: Named,
  text: z.string().nullable(),
});
zodToOpenAPIRegistry.add(Named, { _internal: { refId: 'NullableTestNamed' } });
zodToOpenAPIRegistry.add(Level, { _internal: { refId: 'NullableTestLevel' } });
zodToOpenAPIRegistry.add(Holder, { _internal: { refId: 'NullableTestHolder' } });

function documentOf() {
  return new OpenApiGeneratorV31(
    [Named, Level, Holder].map((schema) => ({ type: 'schema' as const, schema })),
  ).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '1' } });
}

function validatorOf(document: ReturnType<typeof documentOf>) {
  const defs = JSON.parse(
    JSON.stringify(document.components?.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
  ) as Record<string, unknown>;
  return new Ajv2020({ strict: false }).compile({
    $ref: '#/$defs/NullableTestHolder',
    $defs: defs,
  });
}

const good = { obj: { a: 'x' }, level: 'low', plain: { a: 'y' }, text: null };

describe('nullable named schemas in the OpenAPI document', () => {
  it('as the generator writes them, reject null (the defect being fixed)', () => {
    const validate = validatorOf(documentOf());
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, obj: null })).toBe(false);
  });

  it('after fixNullableRefs accept null and still check the named shape', () => {
    const validate = validatorOf(fixNullableRefs(documentOf()));
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, obj: null, level: null })).toBe(true);
    expect(validate({ ...good, obj: { a: 1 } })).toBe(false);
    expect(validate({ ...good, level: 'mid' })).toBe(false);
    expect(validate({ ...good, plain: null })).toBe(false);
  });

  it('rewrites to anyOf [$ref, null] and leaves other nodes alone', () => {
    const holder = fixNullableRefs(documentOf()).components?.schemas?.NullableTestHolder as {
      properties: Record<string, unknown>;
    };
    expect(holder.properties.obj).toEqual({
      anyOf: [{ $ref: '#/components/schemas/NullableTestNamed' }, { type: 'null' }],
    });
    expect(holder.properties.plain).toEqual({ $ref: '#/components/schemas/NullableTestNamed' });
    expect(holder.properties.text).toEqual({ type: ['string', 'null'] });
  });
});
