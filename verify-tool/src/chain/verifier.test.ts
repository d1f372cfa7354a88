import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical/json.js';
import { sha256Hex } from '../hash/sha256.js';
import { GENESIS_PARENT, receiptId } from '../receipts/id.js';
import { generateChain, realisticPayload } from '../testing/chain.js';
import type { LedgerEntryInput } from './types.js';
import { ChainVerifier, verifyChain, verifyReceipt } from './verifier.js';

const chain = (n: number, org = 'org_a'): LedgerEntryInput[] => [
  ...generateChain(n, (seq, parent) => realisticPayload(org, seq, parent)),
];

/** Re-mints entry i after editing its payload, keeping everything else consistent with itself. */
function remint(
  entry: LedgerEntryInput,
  edit: (p: Record<string, unknown>) => void,
): LedgerEntryInput {
  const payload = JSON.parse(entry.payload_text) as Record<string, unknown>;
  edit(payload);
  const payload_text = canonicalJson(payload);
  const receipt_sha256 = sha256Hex(payload_text);
  return {
    ...entry,
    payload_text,
    receipt_sha256,
    receipt_id: receiptId('rcpt', entry.org_seq, receipt_sha256),
  };
}

const codesAt = (entries: LedgerEntryInput[], options = {}) =>
  verifyChain(entries, options).errors.map((e) => `${e.org_seq}:${e.code}`);

describe('verifyChain', () => {
  it('accepts a valid chain and an empty one', () => {
    expect(verifyChain(chain(5))).toEqual({
      ok: true,
      receipts_checked: 5,
      errors: [],
      errors_omitted: 0,
    });
    expect(verifyChain([]).ok).toBe(true);
  });

  it('locates a payload edit on that receipt only', () => {
    const entries = chain(5);
    const e2 = entries[2]!;
    entries[2] = { ...e2, payload_text: e2.payload_text.replace('"score":100', '"score":99') };
    expect(codesAt(entries)).toEqual(['2:hash_mismatch']);
  });

  it('locates a changed parent_hash on that receipt only', () => {
    const entries = chain(5);
    entries[3] = { ...entries[3]!, parent_hash: sha256Hex('forged') };
    expect(codesAt(entries)).toEqual(['3:field_mismatch', '3:parent_mismatch']);
  });

  it('locates a changed receipt_sha256 on that receipt, without blaming its successor', () => {
    const entries = chain(5);
    entries[1] = { ...entries[1]!, receipt_sha256: sha256Hex('forged') };
    expect(codesAt(entries)).toEqual(['1:hash_mismatch', '1:id_mismatch']);
  });

  it('locates a changed org_seq on that receipt only, without a cascade', () => {
    const entries = chain(6);
    entries[2] = { ...entries[2]!, org_seq: 4 };
    expect(codesAt(entries)).toEqual(['4:field_mismatch', '4:id_mismatch']);
    expect(verifyChain(entries).errors[0]!.receipt_id).toBe(entries[2]!.receipt_id);
  });

  it('reports a deleted row as a gap at its successor', () => {
    const entries = chain(5);
    entries.splice(2, 1);
    expect(codesAt(entries)).toEqual(['3:seq_gap']);
  });

  it('reports a deleted first row as a bad genesis', () => {
    expect(codesAt(chain(3).slice(1))).toEqual(['1:bad_genesis']);
  });

  it('reports a deleted last row only against an expected head', () => {
    const entries = chain(4);
    const head = entries[3]!.receipt_sha256;
    expect(verifyChain(entries.slice(0, 3)).ok).toBe(true);
    expect(codesAt(entries.slice(0, 3), { expectedHeadSha256: head })).toEqual(['2:head_mismatch']);
  });

  it('reports a swapped pair on the two swapped rows only', () => {
    const entries = chain(6);
    [entries[2], entries[3]] = [entries[3]!, entries[2]!];
    expect(codesAt(entries)).toEqual(['3:seq_gap', '2:seq_order']);
  });

  it('reports a repeated org_seq (a fork) as a duplicate', () => {
    const entries = chain(4);
    const fork = remint(
      entries[2]!,
      (p) => (p.verdict = { outcome: 'fail', severity: 'propolis', score: 0 }),
    );
    entries.splice(3, 0, fork);
    expect(codesAt(entries)).toEqual(['2:seq_duplicate']);
  });

  it('reports a re-minted receipt at the link to its successor', () => {
    const entries = chain(4);
    entries[1] = remint(
      entries[1]!,
      (p) => (p.verdict = { outcome: 'fail', severity: 'propolis', score: 0 }),
    );
    const errors = verifyChain(entries).errors;
    expect(errors.map((e) => `${e.org_seq}:${e.code}`)).toEqual(['2:parent_mismatch']);
    expect(errors[0]!.message).toContain(entries[1]!.receipt_id);
  });

  it('checks the genesis receipt', () => {
    const [first] = chain(1);
    expect(codesAt([{ ...first!, parent_hash: sha256Hex('x') }])).toEqual([
      '0:field_mismatch',
      '0:bad_genesis',
    ]);
    expect(GENESIS_PARENT).toBe('0'.repeat(64));
  });

  it('ties created_at to the hashed minted_at', () => {
    const entries = chain(3);
    entries[1] = { ...entries[1]!, created_at: '2031-05-05T05:05:05.555Z' };
    entries[2] = { ...entries[2]!, created_at: 'yesterday' };
    expect(codesAt(entries)).toEqual(['1:field_mismatch', '2:bad_entry', '2:field_mismatch']);
  });

  it('checks receipt ids against the prefix', () => {
    const entries = chain(2);
    expect(codesAt(entries, { receiptPrefix: 'acme' })).toEqual(['0:id_mismatch', '1:id_mismatch']);
    entries[1] = { ...entries[1]!, receipt_id: entries[1]!.receipt_id.replace('rcpt', 'rcpx') };
    expect(codesAt(entries)).toEqual(['1:id_mismatch']);
  });

  it('checks org_id against the expected org, or the first authentic payload', () => {
    const entries = chain(3);
    expect(codesAt(entries, { expectedOrgId: 'org_b' })).toEqual([
      '0:field_mismatch',
      '1:field_mismatch',
      '2:field_mismatch',
    ]);
    entries[2] = remint(entries[2]!, (p) => (p.org_id = 'org_b'));
    expect(codesAt(entries)).toEqual(['2:field_mismatch']);
  });

  it('reports unparseable payload text and non-object payloads', () => {
    const entries = chain(2);
    entries[1] = { ...entries[1]!, payload_text: entries[1]!.payload_text.slice(0, -1) };
    expect(codesAt(entries)).toEqual(['1:bad_payload', '1:hash_mismatch']);
    const [first] = chain(1);
    const text = '[1,2]';
    const e = { ...first!, payload_text: text, receipt_sha256: sha256Hex(text) };
    e.receipt_id = receiptId('rcpt', 0, e.receipt_sha256);
    expect(codesAt([e])).toEqual(['0:bad_payload']);
  });

  it('accepts an equal re-serialized payload, and rejects it in strict mode', () => {
    const entries = chain(2);
    const pretty = JSON.stringify(JSON.parse(entries[1]!.payload_text), null, 2);
    entries[1] = { ...entries[1]!, payload_text: pretty };
    expect(verifyChain(entries).ok).toBe(true);
    expect(codesAt(entries, { strict: true })).toEqual(['1:not_canonical']);
    expect(verifyChain(chain(3), { strict: true }).ok).toBe(true);
  });

  it('reports wrongly typed columns without crashing', () => {
    const entries = chain(3);
    entries[1] = { ...entries[1]!, org_seq: 1.5 };
    const result = verifyChain(entries);
    expect(result.errors.map((e) => e.code)).toEqual(['bad_entry', 'seq_gap']);
    expect(result.errors[0]!.receipt_id).toBe(entries[1]!.receipt_id);
  });

  it('keeps at most maxErrors findings and counts the rest', () => {
    const verifier = new ChainVerifier({ expectedOrgId: 'nobody', maxErrors: 2 });
    for (const entry of chain(5)) verifier.push(entry);
    const result = verifier.result();
    expect(result).toMatchObject({ ok: false, receipts_checked: 5, errors_omitted: 3 });
    expect(result.errors).toHaveLength(2);
  });
});

describe('verifyReceipt (one receipt on its own)', () => {
  const entries = chain(4);
  const third = entries[2]!;

  it('accepts an intact receipt anywhere in its chain, without needing its predecessor', () => {
    expect(verifyReceipt(third)).toMatchObject({ ok: true, receipts_checked: 1, errors: [] });
  });

  it.each([
    [
      'a payload byte',
      { ...third, payload_text: third.payload_text.replace('"v":1', '"v":2') },
      'hash_mismatch',
    ],
    ['the stored hash', { ...third, receipt_sha256: 'f'.repeat(64) }, 'hash_mismatch'],
    [
      'the receipt id',
      { ...third, receipt_id: third.receipt_id.replace(/.$/, '0') },
      'id_mismatch',
    ],
    ['the entry parent_hash', { ...third, parent_hash: 'e'.repeat(64) }, 'field_mismatch'],
    ['the entry time', { ...third, created_at: '2020-01-01T00:00:00.000Z' }, 'field_mismatch'],
  ])('refuses a changed %s', (_what, entry, code) => {
    const result = verifyReceipt(entry);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.code)).toContain(code);
  });

  it('refuses a receipt of another organization when one is expected', () => {
    expect(verifyReceipt(third, { expectedOrgId: 'org_b' }).ok).toBe(false);
  });
});

describe('ChainVerifier resumed and handed runs', () => {
  it('resumed after a receipt, takes its successor and flags anything else', () => {
    const entries = chain(6);
    const after = { org_seq: 2, receipt_sha256: entries[2]!.receipt_sha256 };
    expect(verifyChain(entries.slice(3), { after }).ok).toBe(true);
    const skipped = verifyChain(entries.slice(4), { after });
    expect(skipped.errors.map((e) => e.code)).toEqual(['seq_gap']);
    expect(
      verifyChain(entries.slice(3), {
        after: { ...after, receipt_sha256: 'f'.repeat(64) },
      }).errors.map((e) => e.code),
    ).toEqual(['parent_mismatch']);
  });

  it('takes a verified run only when it links to the last receipt and is of the same org', () => {
    const entries = chain(6);
    const part = new ChainVerifier({
      after: { org_seq: 2, receipt_sha256: entries[2]!.receipt_sha256 },
      expectedOrgId: 'org_a',
    });
    for (const entry of entries.slice(3)) part.push(entry);
    const run = part.verifiedRun({ org_seq: 3, parent_hash: entries[3]!.parent_hash });
    expect(run?.count).toBe(3);

    const whole = new ChainVerifier();
    for (const entry of entries.slice(0, 3)) whole.push(entry);
    expect(whole.pushVerifiedRun(run!)).toBe(true);
    expect(whole.result()).toEqual(verifyChain(entries));
    expect(whole.orgId).toBe('org_a');

    const short = new ChainVerifier();
    for (const entry of entries.slice(0, 2)) short.push(entry);
    expect(short.pushVerifiedRun(run!)).toBe(false);
    expect(short.receiptsChecked).toBe(2);

    const otherOrg = new ChainVerifier({ expectedOrgId: 'org_b' });
    for (const entry of entries.slice(0, 3)) otherOrg.push(entry);
    expect(otherOrg.pushVerifiedRun(run!)).toBe(false);
  });

  it('has no verified run once a finding was made', () => {
    const entries = chain(3);
    const verifier = new ChainVerifier();
    verifier.push(entries[0]!);
    verifier.push(entries[2]!);
    expect(verifier.verifiedRun({ org_seq: 0, parent_hash: GENESIS_PARENT })).toBeUndefined();
  });
});
