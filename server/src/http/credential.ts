import { RunledgerError } from '@runledger/core';
import { constantTimeEqual } from '@runledger/core/adapter';
import type { Request } from 'express';

export interface InternalCredential {
  /** The request header that carries it, e.g. `X-Internal-Key`. */
  header: string;
  /** The configured value; null turns the routes off. */
  secret: string | null;
  /** The environment variable that sets it, named in the 503. */
  setting: string;
}

/** The 503 of a route whose credential is unset. */
export const notConfigured = (setting: string) =>
  new RunledgerError('unavailable', `this route is not configured (${setting})`);

/**
 * A route precondition for an internal credential (docs/internal.md): 503 while it is unset,
 * 401 when the header is missing or differs (compared in constant time).
 */
export function internalCredentialGuard({
  header,
  secret,
  setting,
}: InternalCredential): (req: Request) => void {
  return (req) => {
    if (secret === null) throw notConfigured(setting);
    const presented = req.get(header);
    if (presented === undefined || !constantTimeEqual(presented, secret)) {
      throw new RunledgerError('unauthenticated', `missing or wrong ${header}`);
    }
  };
}
