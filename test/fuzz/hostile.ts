import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/**
 * Bodies, path segments and query values of the input classes docs/http.md refuses ("What a
 * request may contain"), made from a generated valid body so they reach every body route: NUL and
 * lone surrogates in values and keys, bytes that are not UTF-8, deep nesting, duplicate member
 * names, 1e309, compression that does not decode, truncation, a foreign charset or content type.
 */

export interface SentBody {
  body: string | Uint8Array;
  headers: Record<string, string>;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** `[[…]]` nested `levels` deep. */
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** The first object member of `text` becomes `member`, or `text` is replaced when not an object. */
function withFirstMember(text: string, member: string): string {
  if (!text.startsWith('{')) return `{${member}}`;
  return text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`;
}

/** The first string value found (breadth first) gets `bad` added; else `bad` becomes a key. */
function poisonValue(value: unknown, bad: string, atEnd: boolean): unknown {
  const queue: unknown[] = [value];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (typeof child === 'string') {
        record[key] = atEnd ? `${child}${bad}` : `${bad}${child}`;
        return value;
      }
      queue.push(child);
    }
  }
  return poisonKey(value, bad);
}

/** The first object gets a key holding `bad`; a value that has none is wrapped in one. */
function poisonKey(value: unknown, bad: string): unknown {
  const queue: unknown[] = [value];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (typeof item !== 'object' || item === null) continue;
    if (!Array.isArray(item)) {
      (item as Record<string, unknown>)[`k${bad}`] = 1;
      return value;
    }
    queue.push(...item);
  }
  return { [`k${bad}`]: value };
}

const poisoned = (text: string, change: (value: unknown) => unknown) =>
  JSON.stringify(change(JSON.parse(text) as unknown)) ?? 'null';

/** Invalid UTF-8 put inside the first string of the text (or at its end). */
function withBytes(text: string, bytes: number[]): Uint8Array {
  const at = text.indexOf('"') + 1;
  const raw = Buffer.from(text);
  return Buffer.concat([raw.subarray(0, at), Buffer.from(bytes), raw.subarray(at)]);
}

type Make = (text: string) => SentBody;
const json =
  (change: (text: string) => string | Uint8Array): Make =>
  (text) => ({ body: change(text), headers: JSON_TYPE });
const encoded =
  (encoding: string, change: (text: string) => Uint8Array): Make =>
  (text) => ({ body: change(text), headers: { ...JSON_TYPE, 'content-encoding': encoding } });

const HOSTILE: Record<string, Make> = {
  nul: json((t) => poisoned(t, (v) => poisonValue(v, '\u0000', true))),
  'high surrogate at the start': json((t) => poisoned(t, (v) => poisonValue(v, '\ud800', false))),
  'high surrogate at the end': json((t) => poisoned(t, (v) => poisonValue(v, '\udbff', true))),
  'low surrogate at the start': json((t) => poisoned(t, (v) => poisonValue(v, '\udc00', false))),
  'low surrogate at the end': json((t) => poisoned(t, (v) => poisonValue(v, '\udfff', true))),
  'lone surrogate in a key': json((t) => poisoned(t, (v) => poisonKey(v, '\ud800'))),
  'nul in a key': json((t) => poisoned(t, (v) => poisonKey(v, '\u0000'))),
  'overlong UTF-8': json((t) => withBytes(t, [0xc0, 0x80])),
  'encoded surrogate': json((t) => withBytes(t, [0xed, 0xa0, 0x80])),
  'invalid byte': json((t) => withBytes(t, [0xff])),
  'depth 65': json((t) => withFirstMember(t, `"a":${deep(65)}`)),
  'depth 10,000': json((t) => withFirstMember(t, `"a":${deep(10_000)}`)),
  'duplicate key': json((t) => {
    const first = /^\{("(?:[^"\\]|\\.)*"):/.exec(t)?.[1];
    return withFirstMember(t, first === undefined ? '"a":1,"a":2' : `${first}:null`);
  }),
  '__proto__ key': json((t) => withFirstMember(t, '"__proto__":{"admin":true}')),
  '1e309': json((t) => withFirstMember(t, '"n":1e309')),
  truncated: json((t) => t.slice(0, Math.floor(t.length / 2))),
  'good gzip': encoded('gzip', (t) => gzipSync(t)),
  'good brotli': encoded('br', (t) => brotliCompressSync(t)),
  'bad gzip': encoded('gzip', (t) => Buffer.from(t)),
  'bad brotli': encoded('br', (t) => Buffer.from(t)),
  'truncated gzip': encoded('gzip', (t) => gzipSync(t).subarray(0, 12)),
  'unknown encoding': encoded('compress', (t) => Buffer.from(t)),
  'utf-16 charset': (t) => ({
    body: t,
    headers: { 'content-type': 'application/json; charset=utf-16' },
  }),
  'text content type': (t) => ({ body: t, headers: { 'content-type': 'text/plain' } }),
};

export const HOSTILE_CLASSES = Object.keys(HOSTILE);

/** A valid body as generated, or (about half the time) one of the hostile classes made from it. */
export function bodyOf(text: fc.Arbitrary<string>): fc.Arbitrary<SentBody> {
  return fc
    .tuple(text, fc.option(fc.constantFrom(...HOSTILE_CLASSES), { freq: 2 }))
    .map(([t, kind]) => (kind === null ? { body: t, headers: JSON_TYPE } : HOSTILE[kind]!(t)));
}

/** Path segments and query values, already percent-encoded, that decode to what the rules refuse. */
export const HOSTILE_ESCAPES = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80', '%C0%80', '%FF', '%ZZ'];
