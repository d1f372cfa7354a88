import type { ShareView } from '@runledger/core';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../html/escape.js';
import { shareHtml } from './html.js';
import { sharePdf } from './pdf.js';
import { qrModules } from './qr.js';

const view = (payload: Record<string, unknown>, verified: boolean): ShareView => ({
  receipt: {
    receipt_id: 'rcpt-000007-abcdef01',
    org_seq: 7,
    receipt_sha256: 'ab'.repeat(32),
    payload,
    verified,
  },
  org_name: 'Ünïcode 日本 org',
  created_at: '2030-01-01T00:00:00.000Z',
  share_url: 'http://localhost:8080/share/tok',
  pdf_url: 'http://localhost:8080/share/tok/pdf',
});

describe('share renderers', () => {
  it('escape the five HTML metacharacters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('show a payload that is no longer a run receipt as raw JSON, marked not verified', () => {
    const html = shareHtml(view({ hello: '<b>' }, false));
    expect(html).toContain('NOT VERIFIED');
    expect(html).toContain('not a well-formed run receipt');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('render a PDF for a malformed payload and for text outside Latin-1', async () => {
    const pdf = await sharePdf(view({ run: { title: '日本語 ✓' } }, false));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('rcpt-000007-abcdef01');
  });

  it('encode the share URL in a square QR matrix', () => {
    const matrix = qrModules('http://localhost:8080/share/tok');
    expect(matrix.length).toBeGreaterThanOrEqual(21);
    expect(matrix.every((row) => row.length === matrix.length)).toBe(true);
    // The top-left finder pattern: a dark 7×7 ring.
    expect(matrix[0]?.slice(0, 7)).toEqual(Array(7).fill(true));
  });
});
