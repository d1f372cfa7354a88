import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical/json.js';
import { generateChain } from '../testing/chain.js';
import type { LedgerEntryInput } from './types.js';
import { verifyChain } from './verifier.js';

const RUNS = { numRuns: 300 };
const iso = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());

/** A chain of 1..8 receipts with arbitrary JSON content around the fields the chain relies on. */
const arbChain = (minLength = 1): fc.Arbitrary<LedgerEntryInput[]> =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), iso), {
        minLength,
        maxLength: 8,
      }),
      fc.constantFrom('org_a', 'org_ü', 'org_\u{1F600}'),
    )
    .map(([bodies, org]) => [
      ...generateChain(bodies.length, (seq, parent) => {
        const [body, mintedAt] = bodies[seq]!;
        return { ...body, org_id: org, org_seq: seq, parent_hash: parent, minted_at: mintedAt };
      }),
    ]);

/** A different string: one character substituted, deleted or inserted. */
function mutateString(s: string, pos: number, kind: number, char: string): string {
  const i = s.length === 0 ? 0 : pos % s.length;
  if (kind === 0 && s.length > 0) {
    const replacement = s[i] === char ? (char === 'a' ? 'b' : 'a') : char;
    return s.slice(0, i) + replacement + s.slice(i + 1);
  }
  if (kind === 1 && s.length > 0) return s.slice(0, i) + s.slice(i + 1);
  return s.slice(0, i) + char + s.slice(i);
}

const FIELDS = [
  'receipt_id',
  'org_seq',
  'parent_hash',
  'receipt_sha256',
  'created_at',
  'payload_text',
] as const;

const arbMutation = fc.record({
  field: fc.constantFrom(...FIELDS),
  index: fc.nat(),
  pos: fc.nat(),
  kind: fc.integer({ min: 0, max: 2 }),
  char: fc.constantFrom('0', '9', 'a', 'f', 'z', '"', '{', ',', ' ', 'é', '\\'),
  seq: fc.integer({ min: -5, max: 20 }),
  time: iso,
});

type Mutation = typeof arbMutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(entry: LedgerEntryInput, m: Mutation): LedgerEntryInput {
  if (m.field === 'org_seq') {
    return { ...entry, org_seq: m.seq === entry.org_seq ? entry.org_seq + 1 : m.seq };
  }
  if (m.field === 'created_at' && m.kind === 2) {
    // Another well-formed time, which only the tie to the hashed minted_at can catch.
    const time = m.time === entry.created_at ? '1999-01-01T00:00:00.000Z' : m.time;
    return { ...entry, created_at: time };
  }
  return { ...entry, [m.field]: mutateString(entry[m.field], m.pos, m.kind, m.char) };
}

/** True when text parses to a value whose canonical form is `canonical` (an equal payload, re-serialized). */
function sameContent(text: string, canonical: string): boolean {
  try {
    return canonicalJson(JSON.parse(text)) === canonical;
  } catch {
    return false;
  }
}

describe('chain verification properties', () => {
  it('accepts every validly minted chain, in strict mode too', () => {
    fc.assert(
      fc.property(arbChain(), (entries) => {
        expect(verifyChain(entries).ok).toBe(true);
        expect(verifyChain(entries, { strict: true }).ok).toBe(true);
      }),
      RUNS,
    );
  });

  it('detects any single change to any stored field and locates it on that receipt (or its successor)', () => {
    fc.assert(
      fc.property(arbChain(), arbMutation, fc.boolean(), (entries, m, strict) => {
        const i = m.index % entries.length;
        const original = entries[i]!;
        const changed = mutate(original, m);
        const tampered = entries.with(i, changed);
        const result = verifyChain(tampered, { strict });
        if (
          !strict &&
          m.field === 'payload_text' &&
          sameContent(changed.payload_text, original.payload_text)
        ) {
          // Outside strict mode an equal payload in another serialization verifies: the content is intact.
          return;
        }
        expect(result.ok).toBe(false);
        const here = (e: { receipt_id: string | null; org_seq: number | null }) =>
          e.receipt_id === changed.receipt_id || e.org_seq === changed.org_seq;
        expect(result.errors.some(here)).toBe(true);
        const successor = entries[i + 1];
        for (const error of result.errors) {
          expect(here(error) || error.receipt_id === successor?.receipt_id).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('detects a deleted receipt, given the expected head', () => {
    fc.assert(
      fc.property(arbChain(2), fc.nat(), (entries, n) => {
        const i = n % entries.length;
        const head = entries.at(-1)!.receipt_sha256;
        const result = verifyChain(entries.toSpliced(i, 1), { expectedHeadSha256: head });
        expect(result.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('detects two swapped receipts and names both', () => {
    fc.assert(
      fc.property(arbChain(2), fc.nat(), fc.nat(), (entries, a, b) => {
        const i = a % entries.length;
        let j = b % entries.length;
        if (i === j) j = (i + 1) % entries.length;
        const swapped = entries.with(i, entries[j]!).with(j, entries[i]!);
        const result = verifyChain(swapped);
        expect(result.ok).toBe(false);
        const named = new Set(result.errors.map((e) => e.receipt_id));
        expect(named.has(entries[i]!.receipt_id) && named.has(entries[j]!.receipt_id)).toBe(true);
      }),
      RUNS,
    );
  });
});
