import { createHmac } from 'node:crypto';
import { RunledgerError, type Actor, type Runledger } from '@runledger/core';
import { constantTimeEqual } from '@runledger/core/adapter';
import type { Request, Response } from 'express';
import type { JwtSigner } from '../http/jwt.js';
import { cookieName, cookiesOf, setCookie, type CookiePolicy } from './cookies.js';

/** A signed-in person, as every use case receives them. */
export type Person = Extract<Actor, { kind: 'user' }>;

export interface Sessions {
  cookies: CookiePolicy;
  /** The person of the session cookie, or null when there is none or it is invalid or expired. */
  personOf(req: Request): Promise<{ person: Person; csrf: string } | null>;
  /** Starts a session: the cookie holds a fresh JWT (the same one the API accepts as a bearer token). */
  start(res: Response, userId: string, orgId: string): void;
  end(res: Response): void;
  /** Throws forbidden unless `presented` is this session's CSRF token (compared in constant time). */
  checkCsrf(req: Request, presented: unknown): void;
}

const SESSION = 'runledger_session';

/**
 * Sessions over the API's own JWTs: the cookie holds the JWT (HttpOnly, so no script reads it) and
 * lives exactly as long. The CSRF token is an HMAC of that JWT under a key derived from the JWT
 * secret, so it needs no storage, is different for every session and dies with it.
 */
export function sessions(deps: {
  runledger: Runledger;
  signer: JwtSigner;
  jwtSecret: string;
  jwtTtlHours: number;
  cookies: CookiePolicy;
}): Sessions {
  const csrfKey = createHmac('sha256', deps.jwtSecret).update('runledger web-app csrf').digest();
  const csrfOf = (jwt: string) => createHmac('sha256', csrfKey).update(jwt).digest('base64url');
  const jwtOf = (req: Request) => cookiesOf(req).get(cookieName(deps.cookies, SESSION)) ?? null;
  return {
    cookies: deps.cookies,
    async personOf(req) {
      const jwt = jwtOf(req);
      const claims = jwt === null ? null : deps.signer.verify(jwt);
      if (jwt === null || claims === null) return null;
      let actor: Actor;
      try {
        // Read from storage on every request: a removed member or a demoted owner applies at once.
        actor = await deps.runledger.auth.resolveUser(claims.sub, claims.org);
      } catch (error) {
        if (error instanceof RunledgerError && error.code === 'unauthenticated') return null;
        throw error;
      }
      if (actor.kind !== 'user') return null;
      if (req.res) req.res.locals.actor_id = actor.userId;
      return { person: actor, csrf: csrfOf(jwt) };
    },
    start(res, userId, orgId) {
      const jwt = deps.signer.sign({ sub: userId, org: orgId });
      setCookie(res, deps.cookies, SESSION, jwt, deps.jwtTtlHours * 3600);
    },
    end(res) {
      setCookie(res, deps.cookies, SESSION, '', 0);
    },
    checkCsrf(req, presented) {
      const jwt = jwtOf(req);
      if (
        jwt === null ||
        typeof presented !== 'string' ||
        !constantTimeEqual(presented, csrfOf(jwt))
      ) {
        throw new RunledgerError(
          'forbidden',
          'the form is stale or came from another site: reload the page and try again',
        );
      }
    },
  };
}
