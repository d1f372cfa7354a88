import { textProblem } from '@runledger/core/schemas';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { engines } from '../helpers/postgres.js';
import { newMember, REGISTRATION_KEY } from '../helpers/router.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * What a route accepts is what it stores and what a receipt attests, byte for byte, on both
 * engines (docs/http.md, "What a request may contain"): generated strings mix any code point with
 * NUL, lone surrogates of both kinds, surrogate pairs, U+FFFD and whitespace the schemas trim.
 */

const SPECIALS = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude80', '\ufffd'];
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIALS, ' ', '\u00a0', '\ufeff', '\u2028') },
  // Any single UTF-16 code unit, lone surrogates included.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);
const text = fc.string({ unit, minLength: 0, maxLength: 40 });

const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('hex');

interface AuditEntry {
  event_type: string;
  payload: { event: { key_id?: string; name?: string } };
}

describe.each(engines)('text round trips on %s', (engine) => {
  let server: TestServer;
  let main: Api;
  let router: Api;
  let owner: SignedIn;
  let memberId: string;

  beforeAll(async () => {
    server = await startTestServer({ WORKER_REGISTRATION_KEY: REGISTRATION_KEY }, { engine });
    ({ api: main } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
    owner = await signIn(main, 'ada@example.com');
    memberId = await newMember(router);
  }, 60_000);
  afterAll(() => server?.close());

  it('stores an accepted API key name as sent (trimmed) and attests the same bytes in its audit receipt', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (name) => {
        const made = await main<{ key_id: string; name: string }>('POST', '/org/api-keys', {
          token: owner.token,
          body: { name },
        });
        const trimmed = name.trim();
        const acceptable = textProblem(name) === undefined && trimmed.length >= 1;
        if (!acceptable || trimmed.length > 200) {
          expect(made.status, made.text).toBe(400);
          expect(made.body).toEqual({ detail: expect.stringMatching(/^body\.name: /) });
          return;
        }
        expect(made.status, made.text).toBe(201);
        expect(utf8(made.body.name)).toBe(utf8(trimmed));
        const listed = await main<{ keys: Array<{ key_id: string; name: string }> }>(
          'GET',
          '/org/api-keys?limit=200',
          { token: owner.token },
        );
        const stored = listed.body.keys.find((k) => k.key_id === made.body.key_id);
        expect(utf8(stored!.name)).toBe(utf8(trimmed));
        const audit = await main<{ entries: AuditEntry[] }>('GET', '/org/audit?limit=200', {
          token: owner.token,
        });
        const receipt = audit.body.entries.find(
          (e) => e.event_type === 'api_key.created' && e.payload.event.key_id === made.body.key_id,
        );
        expect(utf8(receipt!.payload.event.name!)).toBe(utf8(trimmed));
        // Revoked again, so the organization never holds more keys than the audit page shows.
        await main('DELETE', `/org/api-keys/${made.body.key_id}`, { token: owner.token });
      }),
      { numRuns: 40 },
    );
  });

  it('stores a job input with generated keys and values as sent, or refuses it naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(text, text, { maxKeys: 4 }), async (input) => {
        const created = await router<{ job_id: string; input: Record<string, string> }>(
          'POST',
          '/jobs',
          {
            body: {
              member_id: memberId,
              type: 'inference',
              node_class: 'gpu_a_96gb',
              hours: 1,
              input,
            },
          },
        );
        const strings = Object.entries(input).flat();
        const bad =
          strings.some((s) => textProblem(s) !== undefined) ||
          Object.keys(input).includes('__proto__');
        if (bad) {
          expect(created.status, created.text).toBe(400);
          expect(created.body).toEqual({ detail: expect.stringMatching(/^body\.input/) });
          return;
        }
        expect(created.status, created.text).toBe(201);
        const read = await router<{ input: Record<string, string> }>(
          'GET',
          `/jobs/${created.body.job_id}`,
        );
        const stored = read.body.input;
        expect(Object.keys(stored).map(utf8).sort()).toEqual(Object.keys(input).map(utf8).sort());
        for (const [key, value] of Object.entries(input))
          expect(utf8(stored[key]!)).toBe(utf8(value));
      }),
      { numRuns: 40 },
    );
  });
});
