import type { Role } from './schemas/enums.js';

/** Who is calling. An API key acts in its org with the member role (docs/design.md#actors-and-roles). */
export type Actor =
  | { kind: 'user'; userId: string; orgId: string; role: Role; email: string }
  | { kind: 'api_key'; keyId: string; orgId: string; role: 'member' };
