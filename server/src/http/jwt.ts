import { createSecretKey, randomUUID } from 'node:crypto';
import type { Clock } from '@runledger/core/ports';
import jwt from 'jsonwebtoken';

export const JWT_ISSUER = 'runledger';
export const JWT_AUDIENCE = 'runledger-api';

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
      try {
        const claims = jwt.verify(token, key, {
          algorithms: ['HS256'],
          issuer: JWT_ISSUER,
          audience: JWT_AUDIENCE,
          clockTimestamp: nowSeconds(),
          clockTolerance: 0,
        });
        if (typeof claims !== 'object') return null;
        const { sub, org, jti, exp, iat } = claims as Record<string, unknown>;
        if (typeof sub !== 'string' || typeof org !== 'string') return null;
        if (typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number')
          return null;
        return { sub, org };
      } catch {
        return null;
      }
    },
  };
}
