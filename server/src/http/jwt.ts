import {
  createHmac,
  createSecretKey,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import type { Clock } from '@runledger/core/ports';
import jwt from 'jsonwebtoken';
import { verifiedTokens } from './verified-tokens.js';

export const JWT_ISSUER = 'runledger';
export const JWT_AUDIENCE = 'runledger-api';

/** Access tokens whose signature and claims are kept once verified (verified-tokens.ts). */
const VERIFIED_TOKENS = 10_000;

export interface AccessClaims {
  sub: string;
  org: string;
}

export interface JwtSigner {
  sign(claims: AccessClaims): string;
  /** The claims of a valid token, or null for anything else (bad signature, algorithm, audience, expiry). */
  verify(token: string): AccessClaims | null;
}

/** HS256 only, with the algorithm pinned on verify so `alg: none` or RS/HS confusion cannot pass. */
export function jwtSigner(secret: string, ttlHours: number, clock: Clock): JwtSigner {
  // A KeyObject made once: given a string, jsonwebtoken first tries it as a PEM public key on every
  // call (a throw and a parse), which cost more than the HMAC itself.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  const verified = verifiedTokens(VERIFIED_TOKENS, (token) => readHs256(token, key));
  return {
    sign({ sub, org }) {
      const iat = nowSeconds();
      return jwt.sign(
        {
          sub,
          org,
          iss: JWT_ISSUER,
          aud: JWT_AUDIENCE,
          iat,
          exp: iat + ttlHours * 3600,
          jti: randomUUID(),
        },
        key,
        { algorithm: 'HS256' },
      );
    },
    verify(token) {
      return claimsAt(verified.read(token), nowSeconds());
    },
  };
}

/** A JWT's three base64url parts: no padding, nothing outside the alphabet, a 32-byte signature. */
const JWT_SHAPE = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A token's claims as signed, and the window in which they may be used (seconds since the epoch). */
export interface SignedClaims {
  claims: AccessClaims;
  /** Not valid from this second on. */
  exp: number;
  /** Not valid before this second; none when the token says nothing. */
  nbf: number | undefined;
}

/**
 * Everything about an access token that does not depend on the time, as jsonwebtoken checks it with
 * `algorithms: ['HS256']`, our issuer and audience: one HMAC and two small JSON parses. The signature
 * is checked first, in constant time, over the exact bytes received; then the header must say HS256,
 * and the claims must carry our `iss`, our `aud` (or a list holding it), a numeric `exp`, a numeric
 * `nbf` if any, and string `sub`, `org` and `jti` with a numeric `iat`.
 */
export function readHs256(token: string, key: KeyObject): SignedClaims | null {
  const parts = JWT_SHAPE.exec(token);
  if (parts === null) return null;
  const [, header, payload, signature] = parts as unknown as [string, string, string, string];
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return null;
  if (jsonObject(header)?.['alg'] !== 'HS256') return null;
  const claims = jsonObject(payload);
  if (claims === null) return null;
  const { sub, org, jti, exp, iat, nbf, iss, aud } = claims;
  if (iss !== JWT_ISSUER) return null;
  if (Array.isArray(aud) ? !aud.includes(JWT_AUDIENCE) : aud !== JWT_AUDIENCE) return null;
  if (typeof exp !== 'number') return null;
  if (nbf !== undefined && typeof nbf !== 'number') return null;
  if (typeof sub !== 'string' || typeof org !== 'string') return null;
  if (typeof jti !== 'string' || typeof iat !== 'number') return null;
  return { claims: { sub, org }, exp, nbf };
}

/** The claims when `now` is in the token's window (before `exp`, not before `nbf`), else null. */
export function claimsAt(signed: SignedClaims | null, now: number): AccessClaims | null {
  if (signed === null || now >= signed.exp) return null;
  return signed.nbf === undefined || signed.nbf <= now ? signed.claims : null;
}

/**
 * Verifies an access token as jsonwebtoken would with `algorithms: ['HS256']`, our issuer and
 * audience and no clock tolerance (jsonwebtoken's verify was an eighth of an authenticated read's
 * CPU): readHs256, then an `exp` in the future and no `nbf` in the future.
 */
export function verifyHs256(token: string, key: KeyObject, now: number): AccessClaims | null {
  return claimsAt(readHs256(token, key), now);
}
