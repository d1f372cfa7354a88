import * as core from '@runledger/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
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

type Json = Record<string, unknown>;

const RAW_TYPES = /^(application\/(octet-stream|pdf|x-ndjson)|text\/(html|javascript|css))$/;

function walk(value: unknown, visit: (node: Json, path: string) => void, path = '#'): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}/${i}`));
  else if (value !== null && typeof value === 'object') {
    visit(value as Json, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}/${k}`);
  }
}

describe('the served /openapi.json', () => {
  let server: TestServer;
  let document: Json;

  beforeAll(async () => {
    server = await startTestServer();
    ({ document } = await apiClient(server.url));
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
    const schemas = (document.components as { schemas: Record<string, { enum?: unknown[] }> })
      .schemas;
    for (const [name, values] of Object.entries(SPEC_ENUMS)) {
      expect([name, schemas[name]?.enum]).toEqual([name, values]);
    }
  });

  it('has a SPEC list for every enumeration core exports, and serves each under its name', () => {
    const schemas = (document.components as { schemas: Record<string, { enum?: unknown[] }> })
      .schemas;
    const exported = Object.entries(core as Record<string, unknown>).filter(
      ([, v]) => v instanceof z.ZodEnum,
    );
    expect(exported.length).toBeGreaterThan(0);
    for (const [name, schema] of exported) {
      const values = (schema as z.ZodEnum).options;
      if (SPEC_ENUMS[name]) expect([name, values]).toEqual([name, SPEC_ENUMS[name]]);
      expect([name, schemas[name]?.enum]).toEqual([name, values]);
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
