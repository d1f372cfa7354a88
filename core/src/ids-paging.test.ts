import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base32, newId } from './ids.js';
import { decodeCursor, encodeCursor, pageQuery, toPaged } from './paging.js';

describe('ids', () => {
  it('encodes base32 as RFC 4648 does, in lower case', () => {
    expect(base32(new TextEncoder().encode('foobar'))).toBe('mzxw6ytboi');
    expect(base32(new Uint8Array())).toBe('');
  });

  it('prefixes ids and never puts an underscore in their random part', () => {
    const id = newId('key', { bytes: (n) => new Uint8Array(n).fill(255) });
    expect(id).toMatch(/^key_[a-z2-7]{26}$/);
  });
});

describe('paging', () => {
  it('decodes every cursor it encodes', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (created_at, id) => {
        expect(decodeCursor(encodeCursor({ created_at, id }))).toEqual({ created_at, id });
      }),
    );
  });

  it('rejects malformed cursors and limits', () => {
    for (const bad of [
      '!!',
      Buffer.from('{}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad)).toThrow('invalid cursor');
    }
    expect(() => pageQuery({ limit: 1.5 })).toThrow();
    expect(pageQuery({})).toEqual({ query: { limit: 51, after: null }, limit: 50 });
  });

  it('gives a next cursor only when more rows exist', () => {
    const rows = [1, 2, 3].map((i) => ({ created_at: 't', id: `r${i}` }));
    const key = (r: { created_at: string; id: string }) => r;
    expect(toPaged(rows, 3, key, (r) => r.id)).toEqual({ items: ['r1', 'r2', 'r3'], next: null });
    const paged = toPaged(rows, 2, key, (r) => r.id);
    expect(paged.items).toEqual(['r1', 'r2']);
    expect(decodeCursor(paged.next ?? '')).toEqual({ created_at: 't', id: 'r2' });
  });
});
