import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import { DatasetStatus, type DatasetStageBody } from '../schemas/router.js';
import { assertDatasetReady, nextDatasetStatus } from './staging.js';

const ALLOWED = new Set(['pending→staging', 'pending→ready', 'staging→ready', 'staging→failed']);
const TARGETS = ['staging', 'ready', 'failed'] as const;

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof RunledgerError ? error.code : 'other';
  }
}

describe('dataset staging machine', () => {
  it('allows exactly pending→staging, pending→ready, staging→ready and staging→failed', () => {
    for (const from of DatasetStatus.options) {
      for (const to of TARGETS) {
        const move = `${from}→${to}`;
        const code = codeOf(() => nextDatasetStatus(from, { status: to }));
        expect([move, code]).toEqual([move, ALLOWED.has(move) ? null : 'conflict']);
      }
    }
  });

  it('accepts an error only with failed', () => {
    const failed: DatasetStageBody = { status: 'failed', error: 'checksum mismatch' };
    expect(nextDatasetStatus('staging', failed)).toBe('failed');
    expect(codeOf(() => nextDatasetStatus('staging', { status: 'ready', error: 'x' }))).toBe(
      'invalid_input',
    );
  });

  it('lets only a ready dataset be granted', () => {
    for (const status of DatasetStatus.options) {
      expect([status, codeOf(() => assertDatasetReady(status))]).toEqual([
        status,
        status === 'ready' ? null : 'conflict',
      ]);
    }
  });
});
