import { describe, expect, it } from 'vitest';
import { noteSigner, verifierOf, formatVkey } from '../note/keys.js';
import { publishedKey, parseKeysDocument, trustVkey } from '../note/keyring.js';
import { realisticPayload } from '../testing/chain.js';
import { chainOf, checkpointFor, exportLinesOf } from '../testing/ledger.js';
import { verifyExportLines } from './verify.js';

const owner = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const attacker = noteSigner('runledger.example', new Uint8Array(32).fill(2));
const ownerKey = trustVkey(formatVkey(owner.name, owner.publicKey));
const codes = (r: { errors: { code: string }[] }) => r.errors.map((e) => e.code);

describe('export checkpoint', () => {
  const entries = chainOf(6, 'org_a');

  it('verifies the Merkle root and the signature under the owner key', async () => {
    const result = await verifyExportLines(exportLinesOf(entries, 'org_a', owner), {
      keys: [ownerKey],
    });
    expect(result.ok).toBe(true);
    expect(result.authorship).toMatchObject({
      status: 'verified',
      key_name: 'runledger.example',
      signed_at: '2025-02-01T00:00:00.000Z',
    });
    expect(result.checkpoint).toMatchObject({
      origin: 'runledger.example/orgs/org_a',
      tree_size: 6,
      root_hash: result.merkle_root,
    });
  });

  it('says authorship was not checked without a key, and that there is nothing to check without a checkpoint', async () => {
    const signed = await verifyExportLines(exportLinesOf(entries, 'org_a', owner));
    expect(signed).toMatchObject({ ok: true, authorship: { status: 'not_checked' } });
    const unsigned = await verifyExportLines(exportLinesOf(entries, 'org_a'), { keys: [ownerKey] });
    expect(unsigned).toMatchObject({
      ok: true,
      authorship: { status: 'no_checkpoint' },
      checkpoint: null,
    });
  });

  it('catches a chain rewritten and re-hashed end to end', async () => {
    const rewritten = chainOf(6, 'org_a', (seq, parent) => {
      const payload = realisticPayload('org_a', seq, parent);
      return seq === 2
        ? { ...payload, verdict: { outcome: 'fail', severity: 'honey', score: 0 } }
        : payload;
    });
    // The original checkpoint no longer matches the receipts.
    const kept = await verifyExportLines(
      exportLinesOf(rewritten, 'org_a', { checkpoint: checkpointFor(entries, 'org_a', owner) }),
      { keys: [ownerKey] },
    );
    expect(codes(kept)).toEqual(['root_mismatch']);
    // A checkpoint re-signed by whoever rewrote it is not the owner's.
    const resigned = await verifyExportLines(exportLinesOf(rewritten, 'org_a', attacker), {
      keys: [ownerKey],
    });
    expect(codes(resigned)).toEqual(['signature_invalid']);
    expect(resigned.authorship.status).toBe('failed');
    // Without the key, the rewrite is internally consistent: that is what "not checked" means.
    expect((await verifyExportLines(exportLinesOf(rewritten, 'org_a', attacker))).ok).toBe(true);
  });

  it('refuses a checkpoint for fewer receipts, of another org, or signed outside the key window', async () => {
    const short = exportLinesOf(entries, 'org_a', {
      checkpoint: checkpointFor(entries.slice(0, 5), 'org_a', owner),
    });
    expect(codes(await verifyExportLines(short, { keys: [ownerKey] }))).toEqual(['root_mismatch']);
    const foreign = exportLinesOf(entries, 'org_a', {
      checkpoint: checkpointFor(entries, 'org_b', owner),
    });
    expect(codes(await verifyExportLines(foreign, { keys: [ownerKey] }))).toEqual([
      'origin_mismatch',
    ]);
    const retired = parseKeysDocument({
      keys: [
        publishedKey(verifierOf(owner), '2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'),
      ],
    });
    expect(
      codes(await verifyExportLines(exportLinesOf(entries, 'org_a', owner), { keys: retired })),
    ).toEqual(['signature_invalid']);
    const garbled = exportLinesOf(entries, 'org_a', { checkpoint: 'not a note' });
    expect(codes(await verifyExportLines(garbled, { keys: [ownerKey] }))).toEqual([
      'bad_checkpoint',
    ]);
  });
});
