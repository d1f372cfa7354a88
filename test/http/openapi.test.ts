import { request } from 'node:http';
import * as core from '@runledger/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationIdOf } from '../../server/src/http/operation-id.js';
import { apiClient } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Copied by hand from docs/design.md#enumerations (with Roles and the router resources), not from core,
 * so a drift in core or in the served document fails here.
 */
const SPEC_ENUMS: Record<string, string[]> = {
  Severity: ['honey', 'jelly', 'propolis'],
  VerdictOutcome: ['pass', 'risk', 'fail'],
  TierLevel: ['low', 'mid', 'high'],
  CheckStatus: ['pass', 'flag', 'open', 'skip'],
  CheckCategory: ['structure', 'schema', 'math', 'evidence', 'policy'],
  CheckKind: ['auto', 'checklist'],
  RuleSeverity: [
    'high',
    'mid',
    'medium',
    'low',
    'critical',
    'noncritical',
    'honey',
    'jelly',
    'propolis',
    'minor',
  ],
  ApprovalDecision: ['approved', 'rejected', 'escalated'],
  IncidentKind: ['rogue', 'dark', 'policy_violation', 'recurring_flag'],
  Role: ['owner', 'member'],
  JobType: ['inference', 'fine_tune', 'eval', 'dataset_build', 'embedding', 'batch'],
  JobStatus: ['queued', 'leased', 'running', 'completed', 'failed', 'canceled'],
  RouterReceiptType: [
    'membership',
    'dataset_access',
    'compute_quote',
    'compute_job',
    'fine_tune_job',
    'worker_registered',
    'job_leased',
    'worker_job_accepted',
    'artifact_reported',
    'worker_job_completed',
    'worker_job_failed',
    'lease_expired',
  ],
};

/**
 * Core enumerations no operation of either API takes or answers, so neither document carries them (a
 * component no operation uses is left out): RouterReceiptType types the router's receipt lines in
 * DATA_DIR/receipts, RunEvent is the input of the run lifecycle machine. Their values are still
 * checked against core below.
 */
const NOT_IN_ANY_RESPONSE = new Set(['RouterReceiptType', 'RunEvent']);

type Json = Record<string, unknown>;

const RAW_TYPES =
  /^(application\/(octet-stream|pdf|x-ndjson)|text\/(html|javascript|css)|text\/plain; charset=utf-8)$/;

function walk(value: unknown, visit: (node: Json, path: string) => void, path = '#'): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}/${i}`));
  else if (value !== null && typeof value === 'object') {
    visit(value as Json, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}/${k}`);
  }
}

/** A GET that carries a body (fetch refuses to send one). */
function getWithBody(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Operation = { operationId?: string; tags?: string[]; description?: string };
type Paths = Record<string, Record<string, Operation>>;

function operationsOf(document: Json): Array<[string, string, Operation]> {
  return Object.entries(document.paths as Paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [
      method,
      path,
      operation,
    ]),
  );
}

const schemasOf = (document: Json) =>
  (document.components as { schemas: Record<string, { enum?: unknown[] }> }).schemas;

describe('the served /openapi.json', () => {
  let server: TestServer;
  let document: Json;
  let routerDocument: Json;

  beforeAll(async () => {
    server = await startTestServer();
    ({ document } = await apiClient(server.url));
    ({ document: routerDocument } = await apiClient(server.routerUrl));
  });
  afterAll(() => server.close());

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('declares the header each internal route needs as a security scheme', () => {
    const paths = document.paths as Record<string, Record<string, { security?: unknown }>>;
    const schemes = (document.components as { securitySchemes: Json }).securitySchemes;
    const expected: Array<[string, string, string]> = [
      ['/internal/runner/claim', 'runnerToken', 'X-Runner-Token'],
      ['/internal/runner/tasks/{task_id}/complete', 'runnerToken', 'X-Runner-Token'],
      ['/internal/datasets/{dataset_id}/stage', 'internalKey', 'X-Internal-Key'],
      ['/webhooks/payments', 'signature', 'X-Signature'],
    ];
    for (const [path, scheme, header] of expected) {
      expect([path, paths[path]?.post?.security]).toEqual([path, [{ [scheme]: [] }]]);
      expect(schemes[scheme]).toEqual({ type: 'apiKey', in: 'header', name: header });
    }
  });

  it('serves every SPEC enumeration as a named component with exactly SPEC’s values', () => {
    const schemas = { ...schemasOf(routerDocument), ...schemasOf(document) };
    for (const [name, values] of Object.entries(SPEC_ENUMS)) {
      if (NOT_IN_ANY_RESPONSE.has(name)) continue;
      expect([name, schemas[name]?.enum]).toEqual([name, values]);
    }
  });

  it('has a SPEC list for every enumeration core exports, and serves each under its name in the document that uses it', () => {
    const main = schemasOf(document);
    const router = schemasOf(routerDocument);
    const exported = Object.entries(core as Record<string, unknown>).filter(
      ([, v]) => v instanceof z.ZodEnum,
    );
    expect(exported.length).toBeGreaterThan(0);
    for (const [name, schema] of exported) {
      const values = (schema as z.ZodEnum).options;
      if (SPEC_ENUMS[name]) expect([name, values]).toEqual([name, SPEC_ENUMS[name]]);
      if (NOT_IN_ANY_RESPONSE.has(name)) {
        expect([name, main[name] ?? router[name]]).toEqual([name, undefined]);
        continue;
      }
      const served = main[name] ?? router[name];
      expect([name, served?.enum]).toEqual([name, values]);
      if (main[name] && router[name]) expect([name, router[name].enum]).toEqual([name, values]);
    }
  });

  it('keeps the router enumerations out of the main document, and every component is used', () => {
    const main = schemasOf(document);
    for (const name of ['JobType', 'JobStatus', 'NodeClass', 'MemberStatus']) {
      expect([name, main[name]]).toEqual([name, undefined]);
      expect(schemasOf(routerDocument)[name]).toBeDefined();
    }
    for (const doc of [document, routerDocument]) {
      const text = JSON.stringify({ paths: doc.paths, schemas: schemasOf(doc) });
      for (const name of Object.keys(schemasOf(doc))) {
        expect([name, text.includes(`"#/components/schemas/${name}"`)]).toEqual([name, true]);
      }
    }
  });

  it('gives every operation of both documents its derived operationId, a tag declared with a description, and a description', () => {
    for (const doc of [document, routerDocument]) {
      const declared = new Map(
        (doc.tags as Array<{ name: string; description: string }>).map((t) => [t.name, t]),
      );
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThan(25);
      for (const [method, path, operation] of operations) {
        expect([method, path, operation.operationId]).toEqual([
          method,
          path,
          operationIdOf(method, path),
        ]);
        expect([method, path, operation.tags?.length]).toEqual([method, path, 1]);
        expect(declared.get(operation.tags![0]!)?.description).toMatch(/\w/);
        expect(operation.description).toMatch(/Needs /);
      }
    }
  });

  it('GET /health declares the 400 it answers to malformed JSON, on both listeners', async () => {
    for (const [doc, url] of [
      [document, server.url],
      [routerDocument, server.routerUrl],
    ] as const) {
      const health = (doc.paths as Record<string, Record<string, { responses: Json }>>)['/health']!;
      expect(Object.keys(health.get!.responses)).toContain('400');
      const answer = await getWithBody(`${url}/health`, '{"not json');
      expect([answer.status, JSON.parse(answer.body)]).toEqual([
        400,
        { detail: 'request body is not valid JSON' },
      ]);
    }
  });

  it('is licensed Apache-2.0 and names no server address (paths resolve against where it was fetched)', () => {
    for (const doc of [document, routerDocument]) {
      expect((doc.info as Json).license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
      expect(doc.servers).toEqual([{ url: '/' }]);
    }
  });

  it('never inlines a copy of a SPEC enumeration: it must be a $ref to the named one', () => {
    const specValues = new Map(Object.entries(SPEC_ENUMS).map(([n, v]) => [n, new Set(v)]));
    const schemas = (document.components as { schemas: Json }).schemas;
    walk(document, (node, path) => {
      if (!Array.isArray(node.enum)) return;
      const isNamedComponent = Object.keys(SPEC_ENUMS).some(
        (n) => path === `#/components/schemas/${n}`,
      );
      if (isNamedComponent) return;
      for (const [name, set] of specValues) {
        // A narrower list (a grade is pass or flag) is a different type; an identical copy would drift.
        const values = node.enum as unknown[];
        const copies = values.length === set.size && values.every((v) => set.has(v as string));
        expect(copies ? `${path} inlines ${name}` : 'ok').toBe('ok');
      }
    });
    expect(Object.keys(schemas).length).toBeGreaterThan(0);
  });

  it('binds every JSON response of every operation to a named component', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, Json> }>
    >;
    let count = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const content = response.content as Record<string, { schema: Json }> | undefined;
          if (!content) {
            expect(`${method} ${path} ${status}`).toMatch(/ 204$/);
            continue;
          }
          if (!content['application/json']) {
            // Files, PDFs and streams: a declared non-JSON type, and only for a success.
            expect([method, path, status, Object.keys(content)]).toEqual([
              method,
              path,
              expect.stringMatching(/^2/),
              [expect.stringMatching(RAW_TYPES)],
            ]);
            continue;
          }
          const schema = content['application/json'].schema;
          expect([method, path, status, schema?.$ref]).toEqual([
            method,
            path,
            status,
            expect.stringMatching(/^#\/components\/schemas\/\w+$/),
          ]);
          if (Number(status) >= 400) expect(schema?.$ref).toBe('#/components/schemas/Error');
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThan(50);
  });
});
