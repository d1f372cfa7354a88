import type { Request, Response } from 'express';
import { cookieName, cookiesOf, setCookie, type CookiePolicy } from './cookies.js';

const WANTED = 'runledger_wanted';

/** Only a path of this app: never another origin, never a protocol-relative `//host`. */
const isAppPath = (path: string) => /^\/app(\/[^/\\]|$|\?|\/$)/.test(path) && !path.includes('\\');

/** A signed-out browser asking for an app page: remember it (for an hour) to return after sign-in. */
export function rememberWantedPage(req: Request, res: Response, policy: CookiePolicy): void {
  if (req.method === 'GET' && isAppPath(req.originalUrl)) {
    setCookie(res, policy, WANTED, req.originalUrl, 3600);
  }
}

/** Where to go after signing in: the remembered page, else the runs; the cookie is cleared. */
export function takeWantedPage(req: Request, res: Response, policy: CookiePolicy): string {
  const wanted = cookiesOf(req).get(cookieName(policy, WANTED));
  if (wanted === undefined) return '/app/runs';
  setCookie(res, policy, WANTED, '', 0);
  return isAppPath(wanted) ? wanted : '/app/runs';
}
