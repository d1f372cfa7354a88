import { forbidden } from '../errors.js';
import type { Actor } from '../actor.js';

/** Owner-only routes: an API key is never an owner. */
export function requireOwner(actor: Actor): Extract<Actor, { kind: 'user' }> {
  if (actor.kind !== 'user' || actor.role !== 'owner') {
    throw forbidden('only an organization owner may do this');
  }
  return actor;
}

/** The id recorded as `created_by`: a user id or an API key id. */
export function actorId(actor: Actor): string {
  return actor.kind === 'user' ? actor.userId : actor.keyId;
}
