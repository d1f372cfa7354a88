import { createHmac, createSecretKey } from 'node:crypto';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER, jwtSigner, verifyHs256, type AccessClaims } from './jwt.js';

const SECRET = 'a-test-secret-of-enough-length-0123456789';
const key = createSecretKey(Buffer.from(SECRET, 'utf8'));
const NOW = 1_800_000_000;

/** What jsonwebtoken's own verify (the reference) accepts, with the claims the signer requires. */
function reference(token: string, now: number): AccessClaims | null {
  try {
    const claims = jwt.verify(token, key, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      clockTimestamp: now,
      clockTolerance: 0,
    });
    if (typeof claims !== 'object') return null;
    const { sub, org, jti, exp, iat } = claims as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof org !== 'string') return null;
    if (typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') return null;
    return { sub, org };
  } catch {
    return null;
  }
}

/** Mostly the valid value, sometimes absent or one of the wrong ones. */
const mostly = <T>(valid: T, ...wrong: fc.Arbitrary<unknown>[]) =>
  fc.oneof(
    { arbitrary: fc.constant<unknown>(valid), weight: 12 },
    { arbitrary: fc.constant<unknown>(undefined), weight: 1 },
    ...wrong.map((arbitrary) => ({ arbitrary, weight: 1 })),
  );

const claimsArb = fc.record({
  sub: mostly('usr_1', fc.integer()),
  org: mostly('org_1', fc.constant(null)),
  jti: mostly('jti-1', fc.integer()),
  iss: mostly(JWT_ISSUER, fc.constantFrom('evil', '')),
  aud: mostly(
    JWT_AUDIENCE,
    fc.constantFrom('router', ''),
    fc.constant([JWT_AUDIENCE, 'other']),
    fc.constant(['other']),
  ),
  iat: mostly(NOW, fc.integer({ min: NOW - 10, max: NOW + 10 }), fc.constant('soon')),
  exp: mostly(NOW + 60, fc.integer({ min: NOW - 2, max: NOW + 2 }), fc.constant('later')),
  nbf: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.integer({ min: NOW - 2, max: NOW + 2 }), weight: 1 },
    { arbitrary: fc.constant('now'), weight: 1 },
  ),
});

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Any header and payload, signed with HMAC-SHA-256 or -512 (or not at all) under `secret`. */
function forge(
  header: unknown,
  payload: unknown,
  secret: string,
  hash: 'sha256' | 'sha512' | null,
) {
  const signed = `${part(header)}.${part(payload)}`;
  const signature =
    hash === null ? '' : createHmac(hash, secret).update(signed).digest('base64url');
  return `${signed}.${signature}`;
}

/** A token as a client could send it: signed several ways, maybe with one character changed. */
const tokenArb = fc
  .record({
    claims: claimsArb,
    how: fc.constantFrom(
      'HS256',
      'HS256',
      'HS256',
      'HS256',
      'HS512',
      'none',
      'wrong-secret',
      'array',
    ),
    flip: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: fc.nat(), weight: 1 },
    ),
  })
  .map(({ claims, how, flip }) => {
    const payload = Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
    const token =
      how === 'none'
        ? forge({ alg: 'none', typ: 'JWT' }, payload, '', null)
        : how === 'HS512'
          ? forge({ alg: 'HS512', typ: 'JWT' }, payload, SECRET, 'sha512')
          : how === 'array'
            ? forge({ alg: 'HS256', typ: 'JWT' }, [payload], SECRET, 'sha256')
            : forge(
                { alg: 'HS256', typ: 'JWT' },
                payload,
                how === 'wrong-secret' ? `${SECRET}x` : SECRET,
                'sha256',
              );
    if (flip === undefined) return token;
    const at = flip % token.length;
    const changed = token[at] === 'A' ? 'B' : 'A';
    return token.slice(0, at) + changed + token.slice(at + 1);
  });

describe('verifyHs256', () => {
  it('accepts exactly the tokens jsonwebtoken accepts, with the same claims (property)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(tokenArb, (token) => {
        const want = reference(token, NOW);
        if (want !== null) accepted += 1;
        expect(verifyHs256(token, key, NOW)).toEqual(want);
      }),
      { numRuns: 2000 },
    );
    // Both sides of the decision were exercised.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(1900);
  });

  it('accepts the tokens the signer issues until they expire', () => {
    let now = NOW * 1000;
    const signer = jwtSigner(SECRET, 1, { now: () => new Date(now) });
    const token = signer.sign({ sub: 'usr_1', org: 'org_1' });
    expect(signer.verify(token)).toEqual({ sub: 'usr_1', org: 'org_1' });
    now += 3600 * 1000;
    expect(signer.verify(token)).toBeNull();
  });

  it('the signer keeps what it verified, and answers as verifyHs256 at every moment (property)', () => {
    let hits = 0;
    fc.assert(
      fc.property(
        fc.array(tokenArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: NOW - 3, max: NOW + 3 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (pool, steps) => {
          let now = NOW;
          const signer = jwtSigner(SECRET, 1, { now: () => new Date(now * 1000) });
          const seen = new Set<string>();
          for (const [pick, at] of steps) {
            const token = pool[pick % pool.length] ?? '';
            now = at;
            const want = verifyHs256(token, key, at);
            if (seen.has(token) && want !== null) hits += 1;
            seen.add(token);
            expect(signer.verify(token)).toEqual(want);
          }
        },
      ),
      { numRuns: 500 },
    );
    // Tokens were asked again while usable, so kept claims answered.
    expect(hits).toBeGreaterThan(100);
  });

  it('refuses garbage, other algorithms, extra parts and padded signatures', () => {
    const good = jwt.sign(
      { sub: 'u', org: 'o', jti: 'j', iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: NOW, exp: NOW + 60 },
      key,
      { algorithm: 'HS256' },
    );
    expect(verifyHs256(good, key, NOW)).toEqual({ sub: 'u', org: 'o' });
    for (const bad of ['', 'a.b', 'a.b.c', `${good}.x`, `${good}=`, `${good} `, good.slice(1)]) {
      expect(verifyHs256(bad, key, NOW)).toBeNull();
    }
  });
});
