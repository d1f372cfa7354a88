import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { GENESIS_PARENT, canonicalJson } from '@runledger/verify';
import { describe, expect, it } from 'vitest';
import { RunledgerError } from '../errors.js';
import type { ChainHead } from '../ports/run-storage.js';
import { buildReceipt, type BuiltReceipt, type ReceiptInput } from './build.js';
import { RunReceiptPayload } from './payload.js';

const hex = (c: string) => c.repeat(64);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function input(overrides: Partial<ReceiptInput> = {}): ReceiptInput {
  return {
    head: null,
    orgId: 'org_1',
    prefix: 'rcpt',
    run: {
      id: 'run_1',
      title: 'Quarterly close — Zürich',
      project_id: 'prj_1',
      created_by: 'usr_1',
      created_at: new Date('2025-01-02T03:04:05.006Z'),
    },
    flightSheet: { id: 'fs_1', slug: 'invoice-check', version: '2.0.0', sha256: hex('a') },
    submissionSha256: hex('b'),
    evidence: [{ id: 'ev_1', kind: 'file', label: 'ledger.csv', sha256: hex('c'), size: 1024 }],
    checks: [
      {
        key: 'totals',
        category: 'math',
        kind: 'auto',
        severity: 'high',
        tier: 'high',
        status: 'pass',
        detail: null,
      },
      {
        key: 'sign-off',
        category: 'policy',
        kind: 'checklist',
        severity: 'honey',
        tier: 'low',
        status: 'flag',
      },
    ],
    verdict: { outcome: 'pass', severity: 'honey', score: 83 },
    approval: {
      decision: 'approved',
      note: 'ok',
      decided_by: 'usr_2',
      decided_at: '2025-01-03T00:00:00.000Z',
    },
    now: new Date('2025-01-04T00:00:00.000Z'),
    ...overrides,
  };
}

function expectError(fn: () => unknown, code: RunledgerError['code'], message?: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RunledgerError);
    expect((e as RunledgerError).code).toBe(code);
    if (message) expect((e as RunledgerError).message).toMatch(message);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('buildReceipt', () => {
  it('mints the genesis receipt at org_seq 0 with a parent of 64 zeros', () => {
    const r = buildReceipt(input());
    expect(r.org_seq).toBe(0);
    expect(r.parent_hash).toBe('0'.repeat(64));
    expect(r.parent_hash).toBe(GENESIS_PARENT);
    expect(r.payload.org_seq).toBe(0);
    expect(r.payload.parent_hash).toBe(GENESIS_PARENT);
  });

  it('links a successor to the head: org_seq + 1 and parent = head hash', () => {
    const first = buildReceipt(input());
    const head: ChainHead = { org_seq: first.org_seq, receipt_sha256: first.receipt_sha256 };
    const second = buildReceipt(input({ head, run: { ...input().run, id: 'run_2' } }));
    expect(second.org_seq).toBe(1);
    expect(second.parent_hash).toBe(first.receipt_sha256);
    expect(second.payload.parent_hash).toBe(first.receipt_sha256);
    expect(buildReceipt(input({ head: { org_seq: 41, receipt_sha256: hex('e') } })).org_seq).toBe(
      42,
    );
  });

  it('returns a payload whose keys enumerate in canonical order, so its text needs no copy', () => {
    const r = buildReceipt(input());
    expect(JSON.stringify(r.payload)).toBe(r.payload_text);
    expect(r.payload_text).toBe(canonicalJson(JSON.parse(r.payload_text)));
  });

  it('names the receipt {prefix}-{6-digit org_seq}-{first 8 hex of its hash}', () => {
    const r = buildReceipt(input({ head: { org_seq: 6, receipt_sha256: hex('f') } }));
    expect(r.receipt_id).toBe(`rcpt-000007-${r.receipt_sha256.slice(0, 8)}`);
    expect(r.receipt_id).toMatch(/^rcpt-\d{6}-[0-9a-f]{8}$/);
  });

  it('hashes exactly the canonical text: sha256(payload_text) as node:crypto computes it', () => {
    const r = buildReceipt(input());
    expect(r.payload_text).toBe(canonicalJson(r.payload));
    expect(r.receipt_sha256).toBe(sha256(r.payload_text));
    expect(JSON.parse(r.payload_text)).toEqual(r.payload);
  });

  it('builds the payload of docs/design.md#receipts-and-the-chain field for field, and nothing more', () => {
    const extra = { ...input().run, secret_field: 'must not leak' };
    const r = buildReceipt(input({ run: extra }));
    expect(r.payload).toEqual({
      v: 1,
      type: 'run_receipt',
      org_id: 'org_1',
      org_seq: 0,
      parent_hash: GENESIS_PARENT,
      minted_at: '2025-01-04T00:00:00.000Z',
      run: {
        id: 'run_1',
        title: 'Quarterly close — Zürich',
        project_id: 'prj_1',
        created_by: 'usr_1',
        created_at: '2025-01-02T03:04:05.006Z',
      },
      flight_sheet: { id: 'fs_1', slug: 'invoice-check', version: '2.0.0', sha256: hex('a') },
      submission_sha256: hex('b'),
      evidence: [{ id: 'ev_1', kind: 'file', label: 'ledger.csv', sha256: hex('c'), size: 1024 }],
      checks: [
        {
          key: 'totals',
          category: 'math',
          kind: 'auto',
          severity: 'high',
          tier: 'high',
          status: 'pass',
          detail: null,
        },
        {
          key: 'sign-off',
          category: 'policy',
          kind: 'checklist',
          severity: 'honey',
          tier: 'low',
          status: 'flag',
          detail: null,
        },
      ],
      verdict: { outcome: 'pass', severity: 'honey', score: 83 },
      approval: {
        decision: 'approved',
        note: 'ok',
        decided_by: 'usr_2',
        decided_at: '2025-01-03T00:00:00.000Z',
      },
    });
    expect(r.payload_text).not.toContain('must not leak');
  });

  it('rejects a float score, a float size and a version that is not MAJOR.MINOR.PATCH', () => {
    expectError(
      () => buildReceipt(input({ verdict: { outcome: 'pass', severity: 'honey', score: 83.5 } })),
      'invalid_input',
      /score/,
    );
    const ev = input().evidence[0]!;
    expectError(
      () => buildReceipt(input({ evidence: [{ ...ev, size: 1.5 }] })),
      'invalid_input',
      /size/,
    );
    const fs = input().flightSheet;
    expectError(
      () => buildReceipt(input({ flightSheet: { ...fs, version: '1.1' } })),
      'invalid_input',
      /version/,
    );
  });

  it('rejects times without milliseconds or outside UTC', () => {
    const run = input().run;
    expectError(
      () => buildReceipt(input({ run: { ...run, created_at: '2025-01-02T03:04:05Z' } })),
      'invalid_input',
      /created_at/,
    );
    expectError(
      () => buildReceipt(input({ run: { ...run, created_at: '2025-01-02T03:04:05.000+01:00' } })),
      'invalid_input',
    );
    expectError(() => buildReceipt(input({ now: new Date(Number.NaN) })), 'invalid_input');
  });

  it('rejects an open check, an upper-case hash and a bad prefix', () => {
    const [c0, c1] = input().checks;
    expectError(
      () => buildReceipt(input({ checks: [c0!, { ...c1!, status: 'open' }] })),
      'invalid_input',
      /status/,
    );
    expectError(
      () => buildReceipt(input({ submissionSha256: hex('B') })),
      'invalid_input',
      /submission_sha256/,
    );
    expectError(() => buildReceipt(input({ prefix: 'rc-pt' })), 'invalid_input', /prefix/);
    expectError(
      () => buildReceipt(input({ head: { org_seq: -1, receipt_sha256: hex('a') } })),
      'invalid_input',
      /head/,
    );
  });

  it.each(['rejected', 'escalated'])('refuses a run whose decision is %s with 409', (decision) => {
    expectError(
      () => buildReceipt(input({ approval: { ...input().approval, decision } })),
      'conflict',
    );
  });

  it('produces payloads that the strict schema accepts and that carry no floats', () => {
    const r = buildReceipt(input());
    expect(RunReceiptPayload.parse(JSON.parse(r.payload_text))).toEqual(r.payload);
    const numbers: number[] = [];
    JSON.parse(r.payload_text, (_k, v: unknown) => (typeof v === 'number' && numbers.push(v), v));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every(Number.isInteger)).toBe(true);
  });
});

/** The chain rule of docs/design.md#receipts-and-the-chain, checked independently of minting. */
function assertChain(chain: readonly BuiltReceipt[]): void {
  chain.forEach((r, i) => {
    expect(r.org_seq).toBe(i);
    expect(r.payload.org_seq).toBe(i);
    expect(r.receipt_sha256).toBe(sha256(r.payload_text));
    expect(r.receipt_sha256).toBe(sha256(canonicalJson(JSON.parse(r.payload_text))));
    const parent = i === 0 ? '0'.repeat(64) : chain[i - 1]!.receipt_sha256;
    expect(r.parent_hash).toBe(parent);
    expect(r.payload.parent_hash).toBe(parent);
    expect(r.receipt_id).toBe(`rcpt-${String(i).padStart(6, '0')}-${r.receipt_sha256.slice(0, 8)}`);
  });
}

describe('minting a sequence', () => {
  it('always yields a valid hash chain when each receipt is minted from the previous head', () => {
    const runArb = fc.record({
      title: fc.string(),
      score: fc.integer({ min: 0, max: 100 }),
      size: fc.nat(),
      t: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    });
    fc.assert(
      fc.property(fc.array(runArb, { minLength: 1, maxLength: 12 }), (runs) => {
        const chain: BuiltReceipt[] = [];
        for (const [i, r] of runs.entries()) {
          const prev = chain.at(-1);
          const base = input();
          chain.push(
            buildReceipt(
              input({
                head: prev ? { org_seq: prev.org_seq, receipt_sha256: prev.receipt_sha256 } : null,
                run: { ...base.run, id: `run_${i}`, title: r.title },
                evidence: [{ ...base.evidence[0]!, size: r.size }],
                verdict: { outcome: 'risk', severity: 'jelly', score: r.score },
                now: new Date(r.t),
              }),
            ),
          );
        }
        assertChain(chain);
      }),
      { numRuns: 200 },
    );
  });
});
