import { RunledgerError, type Actor, type Runledger } from '@runledger/core';
import type { Request } from 'express';
import type { JwtSigner } from './jwt.js';

/** Who may call a route: nobody needs to sign in, a signed-in person, an owner, or a person or an API key. */
export type AuthRequirement = 'none' | 'user' | 'owner' | 'any';

const API_KEY_PREFIX = 'rlk_';

/** The credential a request carries: `Authorization: Bearer …` wins over `X-API-Key`. */
function credentialOf(req: Request): { kind: 'jwt' | 'api_key'; value: string } | null {
  const header = req.get('authorization');
  if (header !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new RunledgerError('unauthenticated', 'malformed Authorization header');
    const value = match[1];
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
): Promise<Actor | null> {
  if (requirement === 'none') return null;
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

  if (requirement === 'user' && actor.kind !== 'user') {
    throw new RunledgerError('forbidden', 'this route needs a signed-in person, not an API key');
  }
  if (requirement === 'owner' && (actor.kind !== 'user' || actor.role !== 'owner')) {
    throw new RunledgerError('forbidden', 'only an organization owner may do this');
  }
  return actor;
}
