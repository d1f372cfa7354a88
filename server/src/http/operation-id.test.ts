import { describe, expect, it } from 'vitest';
import { assertUniqueOperationIds, operationIdOf } from './operation-id.js';

describe('operationIdOf', () => {
  it('derives the id from the method and every path segment, parameters as By<Name>', () => {
    expect(operationIdOf('get', '/health')).toBe('getHealth');
    expect(operationIdOf('get', '/')).toBe('getRoot');
    expect(operationIdOf('post', '/runs/{run_id}/receipt')).toBe('postRunsByRunIdReceipt');
    expect(operationIdOf('get', '/share/{share_token}/pdf')).toBe('getShareByShareTokenPdf');
    expect(operationIdOf('post', '/internal/runner/tasks/{task_id}/complete')).toBe(
      'postInternalRunnerTasksByTaskIdComplete',
    );
    expect(operationIdOf('get', '/flight-sheets/{id_or_slug}')).toBe('getFlightSheetsByIdOrSlug');
    expect(operationIdOf('delete', '/org/api-keys/{key_id}')).toBe('deleteOrgApiKeysByKeyId');
    expect(operationIdOf('get', '/v1/tribunal/verdicts/{verdict_id}')).toBe(
      'getV1TribunalVerdictsByVerdictId',
    );
  });

  it('separates a static segment from a parameter of the same name', () => {
    expect(operationIdOf('get', '/runs/{runs}')).not.toBe(operationIdOf('get', '/runs/runs'));
  });

  it('gives ids that are URL-safe identifiers', () => {
    for (const path of ['/a.b/{c-d}', '/x_y/{z}', '/ledger/export']) {
      expect(operationIdOf('patch', path)).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
  });
});

describe('assertUniqueOperationIds', () => {
  it('accepts distinct ids and refuses a duplicate, naming both operations', () => {
    const ok = { paths: { '/a': { get: { operationId: 'one' }, post: { operationId: 'two' } } } };
    expect(() => assertUniqueOperationIds(ok)).not.toThrow();
    const clash = {
      paths: {
        '/a-b': { get: { operationId: 'getAB' } },
        '/a/b': { get: { operationId: 'getAB' } },
      },
    };
    expect(() => assertUniqueOperationIds(clash)).toThrow(
      'operationId getAB of GET /a/b is already used by GET /a-b',
    );
  });
});
