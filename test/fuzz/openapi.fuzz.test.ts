import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAttackWorld, type AttackWorld } from '../helpers/attack-world.js';
import type { Api } from '../helpers/openapi.js';
import { engines } from '../helpers/postgres.js';
import { arbitraryOf, bodyTextOf } from '../helpers/schema-arbitrary.js';
import { bodyOf, HOSTILE_ESCAPES } from './hostile.js';

/**
 * Requests generated from the served /openapi.json of both listeners, on SQLite and on PostgreSQL:
 * valid and invalid path, query and body values, the hostile input classes of ./hostile.ts, with
 * every kind of credential. The client checks each answer against the document (declared status,
 * body matching its schema); here, also that no answer is a 5xx.
 * FUZZ_RUNS (default 2,000 per engine) sets the size; FUZZ_SEED replays a failure.
 */
const TOTAL = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: Json }>;
  body?: Json;
  multipart: boolean;
}

function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as Json;
      const content = (op.requestBody as { content?: Record<string, { schema?: Json }> })?.content;
      out.push({
        method: method.toUpperCase(),
        template,
        parameters: (op.parameters ?? []) as Operation['parameters'],
        ...(content?.['application/json']?.schema
          ? { body: content['application/json'].schema }
          : {}),
        multipart: content?.['multipart/form-data'] !== undefined,
      });
    }
  }
  return out;
}

/** A generated value as query text: JSON for objects (some have no prototype, so String() throws). */
const queryText = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** encodeURIComponent, except that a lone surrogate becomes its raw (invalid) UTF-8 escape. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

describe.each(engines)(
  `fuzzing both APIs from their /openapi.json on %s (seed ${SEED})`,
  (engine) => {
    let w: AttackWorld;
    beforeAll(async () => {
      w = await startAttackWorld(engine);
    }, 120_000);
    afterAll(() => w?.close());

    for (const listener of ['main', 'router'] as const) {
      it(`answers every generated ${listener} request with a declared status and schema, never 5xx`, async () => {
        const base = listener === 'main' ? w.server.url : w.server.routerUrl;
        const api: Api = listener === 'main' ? w.main : w.router;
        const document = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
        const components = (document.components as { schemas: Record<string, Json> }).schemas;
        const operations = operationsOf(document);
        expect(operations.length).toBeGreaterThan(20);
        // Real ids and credentials, so generated requests reach handlers and not only validation.
        const ids = [
          w.a.projectId,
          w.a.mintedRunId,
          w.a.draftRunId,
          w.a.evidenceId,
          w.a.checkId,
          w.a.keyId,
          w.a.inviteId,
          w.a.receipt.share_token,
          w.b.mintedRunId,
          w.activeMember,
          w.inactiveMember,
          w.jobOne,
          w.jobTwo,
          w.workerOne.worker_id,
          'agent-task-report',
        ];
        const credentials = [
          undefined,
          w.a.owner.token,
          w.member.token,
          w.apiKey,
          w.b.owner.token,
          w.workerOne.worker_token,
          'garbage',
        ];
        const perOperation = Math.ceil(TOTAL / 2 / operations.length);
        let sent = 0;
        for (const [index, op] of operations.entries()) {
          const pathParams = op.parameters.filter((p) => p.in === 'path');
          const queryParams = op.parameters.filter((p) => p.in === 'query');
          const request = fc.record({
            path: fc.tuple(
              ...pathParams.map(() =>
                fc.oneof(
                  { weight: 3, arbitrary: fc.constantFrom(...ids) },
                  {
                    weight: 1,
                    arbitrary: fc
                      .string({ minLength: 1, maxLength: 80 })
                      // fetch would fold a `.` or `..` segment away, leaving another route.
                      .map((v) => (v === '.' || v === '..' ? 'dot' : encode(v))),
                  },
                  {
                    weight: 1,
                    arbitrary: fc.constantFrom(...HOSTILE_ESCAPES, '%E0%A4%A', 'x'.repeat(300)),
                  },
                ),
              ),
            ),
            query: fc.tuple(
              ...queryParams.map((p) =>
                fc.option(
                  fc.oneof(
                    {
                      weight: 4,
                      arbitrary: arbitraryOf(p.schema, components).map(queryText).map(encode),
                    },
                    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_ESCAPES) },
                  ),
                  { nil: undefined },
                ),
              ),
            ),
            // A route without a body still meets the app's JSON parser when a client sends one.
            body: op.body
              ? bodyOf(bodyTextOf(arbitraryOf(op.body, components)))
              : op.method === 'GET' || op.method === 'HEAD'
                ? fc.constant(undefined)
                : fc.option(bodyOf(fc.constant('{"a":"b"}')), { nil: undefined, freq: 5 }),
            credential: fc.constantFrom(...credentials),
          });
          await fc
            .assert(
              fc.asyncProperty(request, async (r) => {
                let path = op.template;
                pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, r.path[i]!)));
                const query = queryParams
                  .map((p, i) => (r.query[i] === undefined ? '' : `${p.name}=${r.query[i]!}`))
                  .filter((q) => q !== '')
                  .join('&');
                const answer = await api(op.method, query ? `${path}?${query}` : path, {
                  ...(r.credential !== undefined ? { token: r.credential } : {}),
                  ...(r.body !== undefined ? { body: r.body.body, headers: r.body.headers } : {}),
                });
                sent += 1;
                if (answer.status >= 500) {
                  throw new Error(`${op.method} ${path} answered ${answer.status}: ${answer.text}`);
                }
                if (answer.status >= 400)
                  expect(answer.body).toEqual({ detail: expect.any(String) });
              }),
              { numRuns: perOperation, seed: SEED + index, endOnFailure: true },
            )
            .catch((error: unknown) => {
              console.error(`fuzz failure: FUZZ_SEED=${SEED} (${op.method} ${op.template})`);
              throw error;
            });
        }
        expect(sent).toBeGreaterThanOrEqual(perOperation * operations.length);
      }, 600_000);
    }
  },
);
