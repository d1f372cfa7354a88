import { forbidden } from './errors.js';
import type { Role } from './schemas/enums.js';

/** Who is calling. An API key acts in its org with the member role (docs/design.md#actors-and-roles). */
export type Actor =
  | { kind: 'user'; userId: string; orgId: string; role: Role; email: string }
  | { kind: 'api_key'; keyId: string; orgId: string; role: 'member' };

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
