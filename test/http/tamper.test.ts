import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { openRawDb, type RawDb } from '../helpers/sqlite.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface VerifyResult {
  ok: boolean;
  receipts_checked: number;
  errors: Array<{ receipt_id: string; org_seq: number; code: string; message: string }>;
}

/** Each case edits the SQLite file directly, with a second connection, behind the server's back. */
describe('tampering with stored receipts', () => {
  let server: TestServer;
  let api: Api;
  let db: RawDb;
  let ada: SignedIn;
  let chain: MintedReceipt[];

  beforeEach(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    db = await openRawDb(server.dataDir);
    ada = await signIn(api, 'ada@example.com');
    const projectId = await newProject(api, ada.token);
    chain = [];
    for (let i = 0; i < 4; i += 1) {
      chain.push(await mint(api, ada.token, await approvedRun(api, ada.token, projectId)));
    }
    expect((await verify()).ok).toBe(true);
  });
  afterEach(async () => {
    await db.close();
    await server.close();
  });

  const verify = async () =>
    (await api<VerifyResult>('GET', '/ledger/verify', { token: ada.token })).body;
  const verifiedFlag = async (receipt: MintedReceipt) =>
    (await api<{ verified: boolean }>('GET', sharePath(receipt.share_url))).body.verified;
  const at = (seq: number) => {
    const receipt = chain[seq];
    if (!receipt) throw new Error(`no receipt ${seq}`);
    return receipt;
  };

  it('one changed payload byte: verify names that receipt and its share view says verified: false', async () => {
    const target = at(1);
    const changed = await db.run(
      `UPDATE receipts SET payload_text = replace(payload_text, '"looks right"', '"looks righT"') WHERE receipt_id = ?`,
      [target.receipt_id],
    );
    expect(changed).toBe(1);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({
      receipt_id: target.receipt_id,
      org_seq: 1,
      code: 'hash_mismatch',
    });
    expect(await verifiedFlag(target)).toBe(false);
    expect(await verifiedFlag(at(0))).toBe(true);
  });

  it('one changed stored hash: verify names that receipt; share says verified: false', async () => {
    const target = at(2);
    const flipped =
      target.receipt_sha256.slice(0, -1) + (target.receipt_sha256.endsWith('0') ? '1' : '0');
    await db.run('UPDATE receipts SET receipt_sha256 = ? WHERE receipt_id = ?', [
      flipped,
      target.receipt_id,
    ]);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ receipt_id: target.receipt_id, org_seq: 2 });
    expect(await verifiedFlag(target)).toBe(false);
  });

  it('one changed parent_hash: verify names that receipt; share says verified: false', async () => {
    const target = at(3);
    await db.run('UPDATE receipts SET parent_hash = ? WHERE receipt_id = ?', [
      'f'.repeat(64),
      target.receipt_id,
    ]);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ receipt_id: target.receipt_id, org_seq: 3 });
    expect(result.errors.map((e) => e.code)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(parent_mismatch|field_mismatch)$/)]),
    );
    expect(await verifiedFlag(target)).toBe(false);
  });

  it('a deleted row: verify reports the gap at the receipt after it', async () => {
    await db.run('DELETE FROM receipts WHERE receipt_id = ?', [at(1).receipt_id]);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({
      receipt_id: at(2).receipt_id,
      org_seq: 2,
      code: 'seq_gap',
    });
  });

  it('two rows with swapped org_seq: verify names them; both share views say verified: false', async () => {
    const [a, b] = [at(1), at(2)];
    await db.run('UPDATE receipts SET org_seq = -1 WHERE receipt_id = ?', [a.receipt_id]);
    await db.run('UPDATE receipts SET org_seq = 1 WHERE receipt_id = ?', [b.receipt_id]);
    await db.run('UPDATE receipts SET org_seq = 2 WHERE receipt_id = ?', [a.receipt_id]);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({ receipt_id: b.receipt_id, org_seq: 1 });
    expect(result.errors.map((e) => e.receipt_id)).toContain(a.receipt_id);
    expect(await verifiedFlag(a)).toBe(false);
    expect(await verifiedFlag(b)).toBe(false);
  });

  it('the page and the PDF of a tampered receipt say NOT VERIFIED', async () => {
    const target = at(0);
    await db.run(
      `UPDATE receipts SET payload_text = replace(payload_text, '"score":100', '"score":99') WHERE receipt_id = ?`,
      [target.receipt_id],
    );
    const page = await api('GET', sharePath(target.share_url), {
      headers: { accept: 'text/html' },
    });
    expect(page.text).toContain('NOT VERIFIED');
    expect(page.text).toMatch(/NOT VERIFIED as of [^:]+:\d\d:\d\d UTC: failed Content fingerprint/);
    expect(page.text).not.toContain('Verified as of');
    const pdf = await api('GET', sharePath(target.pdf_url));
    expect(pdf.status).toBe(200);
    const pdfText = Buffer.from(pdf.bytes).toString('latin1');
    expect(pdfText.startsWith('%PDF-')).toBe(true);
    expect(pdfText).toContain('(NOT VERIFIED)');
  });
});
