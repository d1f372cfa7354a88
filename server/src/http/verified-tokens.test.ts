import { describe, expect, it } from 'vitest';
import { verifiedTokens } from './verified-tokens.js';

/** A reader that counts its calls and accepts tokens that start with "ok". */
function countingReader() {
  const calls: string[] = [];
  const read = (token: string) => {
    calls.push(token);
    return token.startsWith('ok') ? { token } : null;
  };
  return { calls, read };
}

describe('verified tokens', () => {
  it('reads a verified token once, and a refused one every time', () => {
    const { calls, read } = countingReader();
    const tokens = verifiedTokens(10, read);
    expect(tokens.read('ok-1')).toEqual({ token: 'ok-1' });
    expect(tokens.read('ok-1')).toEqual({ token: 'ok-1' });
    expect(tokens.read('bad')).toBeNull();
    expect(tokens.read('bad')).toBeNull();
    expect(calls).toEqual(['ok-1', 'bad', 'bad']);
  });

  it('keeps at most its capacity, dropping the oldest first', () => {
    const { calls, read } = countingReader();
    const tokens = verifiedTokens(2, read);
    for (const token of ['ok-a', 'ok-b', 'ok-c']) tokens.read(token);
    calls.length = 0;
    tokens.read('ok-c');
    tokens.read('ok-b');
    expect(calls).toEqual([]);
    tokens.read('ok-a');
    expect(calls).toEqual(['ok-a']);
  });

  it('tells apart tokens that differ in one character', () => {
    const { read } = countingReader();
    const tokens = verifiedTokens(10, read);
    expect(tokens.read('ok-x')).toEqual({ token: 'ok-x' });
    expect(tokens.read('ok-y')).toEqual({ token: 'ok-y' });
    expect(tokens.read('oK-x')).toBeNull();
  });
});
