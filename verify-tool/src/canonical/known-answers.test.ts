import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../hash/sha256.js';
import { canonicalJson } from './json.js';

interface CanonicalVector {
  name: string;
  input: string;
  canonical: string;
  sha256: string;
}

const vectors = JSON.parse(
  readFileSync(new URL('../../vectors/known-answers.json', import.meta.url), 'utf8'),
) as { canonical: CanonicalVector[] };

describe('known answers', () => {
  it('has vectors to check', () => {
    expect(vectors.canonical.length).toBeGreaterThanOrEqual(10);
  });

  it.each(vectors.canonical.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const canonical = canonicalJson(JSON.parse(v.input));
    expect(canonical).toBe(v.canonical);
    expect(sha256Hex(canonical)).toBe(v.sha256);
    // A second implementation: if noble and node:crypto ever disagree, one of them is wrong.
    expect(createHash('sha256').update(v.canonical, 'utf8').digest('hex')).toBe(v.sha256);
  });
});
