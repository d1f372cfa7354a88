import type { Response } from 'express';

/**
 * The web app's Content-Security-Policy: the share page's strictness (nothing inline, no eval, no
 * frames, no base) with the app's own two same-origin files and forms posting to this origin only.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every app page: the CSP, no caching of signed-in content, no referrer leaving the site.
 * `same-origin`, not `no-referrer`: under `no-referrer` Chromium sends `Origin: null` on form posts,
 * and the same-origin check needs the real one.
 */
export function appHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', APP_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
}

/** Sends a whole HTML page with the app's headers. */
export function sendHtml(res: Response, status: number, html: string): void {
  appHeaders(res);
  res.status(status).type('html').send(html);
}
