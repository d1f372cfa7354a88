import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/index.js';
import { pdfUrl, shareToken, shareUrl } from './share.js';

describe('share links', () => {
  it('makes a token of 32 random bytes in base64url', () => {
    let asked = 0;
    const random: Random = {
      bytes: (n) => {
        asked = n;
        return Uint8Array.from({ length: n }, (_, i) => i * 7);
      },
    };
    const token = shareToken(random);
    expect(asked).toBe(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...Buffer.from(token, 'base64url')]).toEqual(
      Array.from({ length: 32 }, (_, i) => i * 7),
    );
  });

  it('builds share_url and pdf_url from the public base URL, with or without a trailing slash', () => {
    expect(shareUrl('https://ledger.example', 'abc-_1')).toBe(
      'https://ledger.example/share/abc-_1',
    );
    expect(shareUrl('https://ledger.example/', 'abc')).toBe('https://ledger.example/share/abc');
    expect(pdfUrl('http://localhost:8080', 'abc')).toBe('http://localhost:8080/share/abc/pdf');
  });
});
