import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReceiptPayload, ShareView } from '@runledger/core';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../html/escape.js';
import { SHARE_ERROR_PAGE, shareHtml } from './html.js';
import { sharePdf } from './pdf.js';
import { qrModules } from './qr.js';

/** Stored strings in each script the PDF must carry unchanged (docs/share.md#fonts). */
const SCRIPTS = {
  title: 'Отчёт — 事故まとめ ✓ café',
  note: 'geprüft ✓ — 確認済み…',
  label: 'журнал',
  greek: 'Ελληνικά: το άθροισμα διαφέρει',
  cjk: '汉字与かな混在の説明',
  korean: '한국어 검사 결과: 통과',
  hebrew: 'שלום עולם',
  arabic: 'مرحبا بالعالم',
  symbols: '✓ pass ✗ fail — done…',
} as const;

const payload = (title: string): RunReceiptPayload => ({
  v: 1,
  type: 'run_receipt',
  org_id: 'org_1',
  org_seq: 7,
  parent_hash: '0'.repeat(64),
  minted_at: '2030-01-01T00:00:00.000Z',
  run: {
    id: 'run_1',
    title,
    project_id: 'prj_1',
    created_by: 'usr_1',
    created_at: '2030-01-01T00:00:00.000Z',
  },
  flight_sheet: { id: 'fs_1', slug: 'support-reply', version: '1.0.0', sha256: 'a'.repeat(64) },
  submission_sha256: 'b'.repeat(64),
  evidence: [{ id: 'evd_1', kind: 'log', label: SCRIPTS.label, sha256: 'c'.repeat(64), size: 32 }],
  checks: [
    {
      key: 'answers_the_question',
      category: 'policy',
      kind: 'checklist',
      severity: 'high',
      tier: 'high',
      status: 'pass',
      detail: 'Pass when the reply answers the customer’s question',
    },
    ...(['greek', 'cjk', 'korean', 'hebrew', 'arabic', 'symbols'] as const).map((key) => ({
      key,
      category: 'policy' as const,
      kind: 'auto' as const,
      severity: 'mid' as const,
      tier: 'mid' as const,
      status: 'pass' as const,
      detail: SCRIPTS[key],
    })),
  ],
  verdict: { outcome: 'pass', severity: 'honey', score: 100 },
  approval: {
    decision: 'approved',
    note: SCRIPTS.note,
    decided_by: 'usr_2',
    decided_at: '2030-01-01T00:00:00.000Z',
  },
});

const view = (
  body: Record<string, unknown>,
  verified: boolean,
  extra: Partial<ShareView> & Record<string, unknown> = {},
): ShareView => ({
  receipt: {
    receipt_id: 'rcpt-000007-abcdef01',
    org_seq: 7,
    receipt_sha256: 'ab'.repeat(32),
    payload: body,
    verified,
  },
  org_name: 'Ünïcode 日本 org',
  project_name: 'Проект 報告',
  created_by: { id: 'usr_1', email: 'ada@example.com' },
  approved_by: { id: 'usr_2', email: 'grace@example.com' },
  created_at: '2030-01-01T00:00:00.000Z',
  share_url: `http://localhost:8080/share/${'t'.repeat(43)}`,
  pdf_url: `http://localhost:8080/share/${'t'.repeat(43)}/pdf`,
  base_url: 'http://localhost:8080',
  verification: {
    checked_at: '2030-01-02T03:04:05.000Z',
    failures: verified
      ? []
      : [{ code: 'hash_mismatch', message: 'payload hashes to 1234…, not abab…' }],
  },
  ...extra,
});

const dir = mkdtempSync(join(tmpdir(), 'share-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text as pdftotext extracts it, page by page, with bidi marks dropped and spaces collapsed. */
function pdfPages(pdf: Buffer): string[] {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    .split('\f')
    .filter((page) => page.trim() !== '')
    .map((page) =>
      page.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' '),
    );
}

describe('share PDF', () => {
  it('carries titles, labels, notes and check details in every script exactly as stored', async () => {
    const text = pdfPages(await sharePdf(view(payload(SCRIPTS.title), true))).join(' ');
    for (const value of Object.values(SCRIPTS)) expect(text).toContain(value);
    expect(text).toContain('Проект 報告 (prj_1)');
    expect(text).toContain('Ünïcode 日本 org');
  });

  it('prints a character no embedded font has as a visible [U+…] marker, never as another character', async () => {
    const text = pdfPages(await sharePdf(view(payload('emoji 😀 and hangul 한 end'), true))).join(
      ' ',
    );
    expect(text).toContain('emoji [U+1F600] and hangul 한 end');
  });

  it('embeds subset fonts instead of the built-in Latin-1 ones', async () => {
    const file = join(dir, 'fonts.pdf');
    writeFileSync(file, await sharePdf(view(payload(SCRIPTS.title), true)));
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).not.toMatch(/Helvetica|Courier/);
    for (const face of [
      'NotoSans-Regular',
      'NotoSansHans',
      'NotoSansKR',
      'NotoSansHebrew',
      'NotoNaskhArabic',
    ])
      expect(fonts).toMatch(new RegExp(`[A-Z]{6}\\+${face}.* yes yes yes`));
  });

  it('puts the receipt id, the result and "Page n of N" on every page', async () => {
    const checks = Array.from({ length: 40 }, (_, i) => ({
      ...payload('x').checks[1],
      key: `check_${i}`,
    }));
    const pages = pdfPages(await sharePdf(view({ ...payload('long'), checks }, true)));
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      expect(page).toContain('runledger receipt rcpt-000007-abcdef01');
      expect(page).toContain('Verified as of 2 January 2030, 03:04:05 UTC');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    });
  });

  it('keeps the QR code on the first page beside the title, with the share link', async () => {
    const pages = pdfPages(await sharePdf(view(payload('short'), true)));
    expect(pages[0]).toContain(`Scan or open: http://localhost:8080/share/${'t'.repeat(43)}`);
    // The last page has content of its own, not only the header and footer.
    expect(pages.at(-1)).toContain(`receipt_sha256 ${'ab'.repeat(32)}`);
  });

  it('shows findings, not the grader’s instruction, and explains tiers and severities', async () => {
    const text = pdfPages(await sharePdf(view(payload('t'), true))).join(' ');
    expect(text).toContain('Finding A reviewer confirmed this criterion is met.');
    expect(text).toContain('Criterion Pass when the reply answers the customer’s question');
    expect(text).toContain('Severity honey nothing flagged above the low tier');
    expect(text).toContain('Tier high a check that matters most');
    expect(text).toContain('Approved by grace@example.com (usr_2)');
  });

  it('says what was checked, as of when, and how to check it oneself; no checkpoint is said plainly', async () => {
    const text = pdfPages(await sharePdf(view(payload('t'), true))).join(' ');
    expect(text).toContain('As of 2 January 2030, 03:04:05 UTC (2030-01-02T03:04:05.000Z)');
    expect(text).toContain('✓ passed Content fingerprint');
    expect(text).toContain('Authorship is not yet proven by a signed checkpoint');
    expect(text).toContain('runledger-verify receipt share.json --key <vkey>');
    expect(text).toContain('http://localhost:8080/verify');
  });

  it('shows a signed checkpoint’s size, root and key id when the view carries one', async () => {
    const checkpoint = {
      checkpoint: 'runledger.example/org_1\n8\nq83vEjRWeJ...=\n\n— runledger.example abcd1234\n',
      tree_size: 8,
      root_hash: 'fe'.repeat(32),
      key_id: '1a2b3c4d',
    };
    const proof = {
      receipt_id: 'rcpt-000007-abcdef01',
      leaf_index: 7,
      tree_size: 8,
      hashes: ['aa'.repeat(32)],
    };
    const extra = { checkpoint, inclusion_proof: proof };
    const text = pdfPages(await sharePdf(view(payload('t'), true, extra))).join(' ');
    expect(text).toContain(`ledger of 8 receipts has root hash ${'fe'.repeat(32)}`);
    expect(text).toContain('key fingerprint (key id) is 1a2b3c4d');
    expect(text).toContain('leaf 7 of that tree');
    expect(text).not.toContain('not yet proven');
    const html = shareHtml(view(payload('t'), true, extra));
    expect(html).toContain('1a2b3c4d');
    expect(html).toContain(
      '<a href="http://localhost:8080/verify">http://localhost:8080/verify</a>',
    );
    expect(html).not.toContain('not yet proven');
  });

  it('names the failed check of a tampered receipt and marks its content as altered', async () => {
    const text = pdfPages(await sharePdf(view(payload('t'), false))).join(' ');
    expect(text).toContain(
      'NOT VERIFIED as of 2 January 2030, 03:04:05 UTC: failed Content fingerprint',
    );
    expect(text).toContain('✗ FAILED Content fingerprint');
    expect(text).toContain('payload hashes to 1234…, not abab…');
    expect(text).toContain('Run (altered, not verified)');
    expect(text).not.toContain('Verified as of');
  });

  it('renders a payload that is no longer a run receipt, and text outside Latin-1, without failing', async () => {
    const pdf = await sharePdf(view({ run: { title: '日本語 ✓' } }, false));
    const text = pdfPages(pdf).join(' ');
    expect(text).toContain('The stored content is not a well-formed run receipt.');
    expect(pdf.length).toBeLessThan(300_000);
  });
});

describe('share page', () => {
  it('escapes the five HTML metacharacters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('shows a payload that is no longer a run receipt only as raw JSON, marked not verified', () => {
    const html = shareHtml(view({ hello: '<b>' }, false));
    expect(html).toContain('NOT VERIFIED');
    expect(html).toContain('not a well-formed run receipt');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('keeps the ISO time beside the readable one and the payload behind a closed disclosure', () => {
    const html = shareHtml(view(payload('t'), true));
    expect(html).toContain(
      '<time datetime="2030-01-01T00:00:00.000Z">1 January 2030, 00:00:00 UTC</time>',
    );
    expect(html).toMatch(/<details id="payload"><summary>/);
    expect(html).not.toMatch(/<details[^>]* open/);
  });

  it('answers an error with a page that does not echo anything from the request', () => {
    expect(SHARE_ERROR_PAGE.render(404, 'receipt not found')).toContain('Receipt not found');
    expect(SHARE_ERROR_PAGE.render(429, 'too many requests')).toContain(
      'too many requests (HTTP 429)',
    );
  });

  it('encodes the share URL in a square QR matrix', () => {
    const matrix = qrModules('http://localhost:8080/share/tok');
    expect(matrix.length).toBeGreaterThanOrEqual(21);
    expect(matrix.every((row) => row.length === matrix.length)).toBe(true);
    // The top-left finder pattern: a dark 7×7 ring.
    expect(matrix[0]?.slice(0, 7)).toEqual(Array(7).fill(true));
  });
});
