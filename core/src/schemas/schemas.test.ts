import { describe, expect, it } from 'vitest';
import { ApprovalIn } from './approval.js';
import { CheckGradeIn, FlagsList } from './check.js';
import { Evidence, EvidenceIn } from './evidence.js';
import { FlightSheetRule, RuleCheck } from './flight-sheet.js';
import { IncidentIn } from './incident.js';
import { LedgerVerifyResult } from './ledger.js';
import { Receipt } from './receipt.js';
import { Verdict } from './verdict.js';

const hex = 'a'.repeat(64);

describe('request schemas', () => {
  it('reject unknown keys', () => {
    expect(EvidenceIn.safeParse({ kind: 'note', label: 'n', content: 'c', extra: 1 }).success).toBe(
      false,
    );
    expect(ApprovalIn.safeParse({ decision: 'approved', by: 'me' }).success).toBe(false);
    expect(IncidentIn.safeParse({ kind: 'rogue', note: 'x', severity: 'high' }).success).toBe(
      false,
    );
    expect(CheckGradeIn.safeParse({ status: 'pass', detail: 'x' }).success).toBe(false);
  });

  it('accept the documented bodies', () => {
    expect(
      EvidenceIn.parse({ kind: 'note', label: 'Reviewer note', content: 'Looks fine.' }),
    ).toBeTruthy();
    expect(ApprovalIn.parse({ decision: 'escalated' })).toEqual({ decision: 'escalated' });
    expect(IncidentIn.parse({ kind: 'policy_violation', note: 'leaked a key' })).toBeTruthy();
    expect(CheckGradeIn.parse({ status: 'flag' })).toEqual({ status: 'flag' });
  });

  it('refuse single_flag as an incident kind and open as a grade', () => {
    expect(IncidentIn.safeParse({ kind: 'single_flag', note: 'x' }).success).toBe(false);
    expect(CheckGradeIn.safeParse({ status: 'open' }).success).toBe(false);
  });

  it('accept each JSON evidence kind and refuse file, which only the upload creates', () => {
    for (const kind of ['note', 'text', 'log']) {
      expect(EvidenceIn.safeParse({ kind, label: 'l', content: 'anything' }).success).toBe(true);
    }
    expect(EvidenceIn.safeParse({ kind: 'file', label: 'l', content: 'x' }).success).toBe(false);
  });

  it('require a url to be http(s) and json to parse', () => {
    expect(
      EvidenceIn.safeParse({ kind: 'url', label: 'l', content: 'https://example.com/a' }).success,
    ).toBe(true);
    expect(
      EvidenceIn.safeParse({ kind: 'url', label: 'l', content: 'javascript:alert(1)' }).success,
    ).toBe(false);
    expect(EvidenceIn.safeParse({ kind: 'json', label: 'l', content: '{"a":[1]}' }).success).toBe(
      true,
    );
    expect(EvidenceIn.safeParse({ kind: 'json', label: 'l', content: '{a:1}' }).success).toBe(
      false,
    );
  });
});

describe('rule schemas', () => {
  it('discriminate checks on op and refuse a regex op', () => {
    expect(RuleCheck.parse({ op: 'compare', left: '/a', cmp: 'lte', right: 3 })).toBeTruthy();
    expect(RuleCheck.safeParse({ op: 'compare', left: '/a', cmp: 'le', right: 3 }).success).toBe(
      false,
    );
    expect(RuleCheck.safeParse({ op: 'regex', path: '/a', pattern: '.*' }).success).toBe(false);
    expect(
      RuleCheck.safeParse({ op: 'sum', items: '/a', field: 'x', equals: '/t', tolerance: '-1' })
        .success,
    ).toBe(false);
  });

  it('accept both severity vocabularies on a rule', () => {
    for (const severity of ['critical', 'noncritical', 'high', 'mid', 'low', 'propolis']) {
      const rule = {
        key: 'k',
        label: 'L',
        category: 'schema',
        kind: 'auto',
        severity,
        check: { op: 'schema' },
      };
      expect(FlightSheetRule.safeParse(rule).success).toBe(true);
    }
  });
});

describe('response schemas', () => {
  it('validate enumerations on the way out', () => {
    const verdict = {
      severity: 'jelly',
      outcome: 'risk',
      score: 70,
      pass_threshold: 80,
      fail_threshold: 50,
      counts: { pass: 1, flag: 1, open: 0, skip: 0 },
    };
    expect(Verdict.parse(verdict)).toEqual(verdict);
    expect(Verdict.safeParse({ ...verdict, severity: 'wax' }).success).toBe(false);
    expect(Verdict.safeParse({ ...verdict, score: 101 }).success).toBe(false);
    expect(
      FlagsList.safeParse({ flags: [{ key: 'k', severity: 'severe', detail: 'd' }] }).success,
    ).toBe(false);
  });

  it('require lowercase hex hashes and ISO timestamps', () => {
    const receipt = {
      receipt_id: 'rcpt-000000-aaaaaaaa',
      org_seq: 0,
      parent_hash: '0'.repeat(64),
      receipt_sha256: hex,
      share_token: 'tok',
      share_url: 'http://localhost:8080/share/tok',
      pdf_url: 'http://localhost:8080/share/tok/pdf',
      created_at: '2026-01-02T03:04:05.678Z',
    };
    expect(Receipt.parse(receipt)).toEqual(receipt);
    expect(Receipt.safeParse({ ...receipt, receipt_sha256: hex.toUpperCase() }).success).toBe(
      false,
    );
    expect(Receipt.safeParse({ ...receipt, created_at: 'yesterday' }).success).toBe(false);
    expect(
      Evidence.safeParse({
        id: 'e',
        kind: 'file',
        label: 'l',
        sha256: hex,
        size: 3,
        created_at: receipt.created_at,
      }).success,
    ).toBe(true);
  });

  it('type ledger verification errors by code', () => {
    const error = { receipt_id: 'r', org_seq: 3, code: 'seq_gap', message: 'expected org_seq 2' };
    expect(
      LedgerVerifyResult.parse({ ok: false, receipts_checked: 4, errors: [error] }).errors,
    ).toEqual([error]);
    expect(
      LedgerVerifyResult.safeParse({
        ok: false,
        receipts_checked: 4,
        errors: [{ ...error, code: 'oops' }],
      }).success,
    ).toBe(false);
  });
});
