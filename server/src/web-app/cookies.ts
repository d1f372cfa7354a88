import type { Request, Response } from 'express';

/** The cookies of a request, by name (first value wins; values are not decoded beyond percent-escapes). */
export function cookiesOf(req: Request): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (found.has(name)) continue;
    try {
      found.set(name, decodeURIComponent(part.slice(at + 1).trim()));
    } catch {
      // A malformed escape is a cookie we did not set: ignored.
    }
  }
  return found;
}

export interface CookiePolicy {
  /** Served over https: cookies are `Secure` and carry the `__Host-` prefix. */
  secure: boolean;
}

/** `__Host-<name>` over https (Secure, Path=/, no Domain: bound to this exact origin), `<name>` otherwise. */
export const cookieName = (policy: CookiePolicy, name: string) =>
  policy.secure ? `__Host-${name}` : name;

/** Sets an HttpOnly, SameSite=Lax cookie for the whole origin; maxAgeSeconds 0 deletes it. */
export function setCookie(
  res: Response,
  policy: CookiePolicy,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  const attributes = [
    `${cookieName(policy, name)}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(policy.secure ? ['Secure'] : []),
  ];
  res.append('Set-Cookie', attributes.join('; '));
}
