import { RunledgerError } from '@runledger/core';
import type { Request } from 'express';

/**
 * The first CSRF line: a state-changing request must come from a page of this origin. Browsers send
 * `Origin` on every POST and `Sec-Fetch-Site` on every request; either one naming another site is
 * refused before the body is read. The CSRF token (session.ts) is the second line.
 */
export function assertSameOrigin(req: Request, publicOrigin: string): void {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw crossSite();
  const origin = req.get('origin');
  if (origin === undefined) return;
  const own = `${req.protocol}://${req.get('host') ?? ''}`;
  if (origin !== own && origin !== publicOrigin) throw crossSite();
}

const crossSite = () =>
  new RunledgerError('forbidden', 'this form was sent from another site; nothing was changed');
