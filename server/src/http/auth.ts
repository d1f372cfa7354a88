import {
  API_KEY_PREFIX,
  RunledgerError,
  type Actor,
  type Runledger,
  type WorkerActor,
} from '@runledger/core';
import type { Request } from 'express';
import type { JwtSigner } from './jwt.js';

/**
 * Who may call a route: nobody needs to sign in, a signed-in person, an owner, a person or an API key,
 * or (router API) a registered worker presenting its worker token.
 */
export type AuthRequirement = 'none' | 'user' | 'owner' | 'any' | 'worker';

/** The bearer token of `Authorization: Bearer <token>`, or null when the header is absent. */
export function bearerOf(req: Request): string | null {
  const header = req.get('authorization');
  if (header === undefined) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new RunledgerError('unauthenticated', 'malformed Authorization header');
  return match[1];
}

/** The credential a request carries: `Authorization: Bearer …` wins over `X-API-Key`. */
function credentialOf(req: Request): { kind: 'jwt' | 'api_key'; value: string } | null {
  const value = bearerOf(req);
  if (value !== null) {
    return { kind: value.startsWith(API_KEY_PREFIX) ? 'api_key' : 'jwt', value };
  }
  const apiKey = req.get('x-api-key');
  if (apiKey !== undefined) return { kind: 'api_key', value: apiKey.trim() };
  return null;
}

/**
 * Resolves the caller and enforces the route's requirement. The role comes from storage on every
 * request (resolveUser), so a demotion or removal applies to tokens already issued.
 */
export async function authenticate(
  req: Request,
  requirement: AuthRequirement,
  runledger: Runledger,
  signer: JwtSigner,
): Promise<Actor | WorkerActor | null> {
  if (requirement === 'none') return null;
  if (requirement === 'worker') {
    // Only the bearer header: a worker token is never an API key, and X-API-Key means nothing here.
    const token = bearerOf(req);
    if (token === null) throw new RunledgerError('unauthenticated', 'worker token required');
    return runledger.router.authenticateWorker(token);
  }
  const credential = credentialOf(req);
  if (!credential) throw new RunledgerError('unauthenticated', 'authentication required');

  let actor: Actor;
  if (credential.kind === 'api_key') {
    actor = await runledger.auth.authenticateApiKey(credential.value);
  } else {
    const claims = signer.verify(credential.value);
    if (!claims) throw new RunledgerError('unauthenticated', 'invalid or expired token');
    actor = await runledger.auth.resolveUser(claims.sub, claims.org);
  }

  // Named in the security log when the request is refused later on (never the credential itself).
  if (req.res) req.res.locals.actor_id = actor.kind === 'user' ? actor.userId : actor.keyId;
  if (requirement === 'user' && actor.kind !== 'user') {
    throw new RunledgerError('forbidden', 'this route needs a signed-in person, not an API key');
  }
  if (requirement === 'owner' && (actor.kind !== 'user' || actor.role !== 'owner')) {
    throw new RunledgerError('forbidden', 'only an organization owner may do this');
  }
  return actor;
}
