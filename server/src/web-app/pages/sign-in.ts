import { RunledgerError } from '@runledger/core';
import { AuthRequestBody } from '@runledger/core/schemas';
import type { Request, RequestHandler, Response, Router } from 'express';
import { withoutRemoteDevLink } from '../../http/loopback.js';
import { prefersHtml } from '../../http/negotiation.js';
import { escapeHtml } from '../../html/escape.js';
import { sendHtml } from '../csp.js';
import type { AppDeps } from '../deps.js';
import { fail } from '../handlers.js';
import { layout } from '../layout.js';
import { takeWantedPage } from '../return-to.js';
import { assertSameOrigin } from '../same-origin.js';

type Anonymous = (req: Request, res: Response) => Promise<void>;

/** A page or form target that needs no session: errors become pages, never JSON. */
function anonymous(handler: Anonymous): RequestHandler {
  return async (req, res, next) => {
    res.locals.route = req.route ? String(req.route.path) : '/app/sign-in';
    try {
      await handler(req, res);
    } catch (error) {
      fail(res, next, error, null);
    }
  };
}

const show = (res: Response, title: string, body: string, status = 200) =>
  sendHtml(res, status, layout(title, body, null));

const EMAIL_FORM = [
  '<form method="post" action="/app/sign-in" class="stack">',
  '<label for="email">E-mail address</label>',
  '<input id="email" name="email" type="email" autocomplete="email" required maxlength="320">',
  '<button type="submit">Send me a sign-in link</button></form>',
].join('');

/** The one-button page an e-mailed link opens: opening it (as a mail scanner does) uses nothing. */
function confirmPage(res: Response, what: 'sign-in' | 'invite', token: string): void {
  const [title, action, button] =
    what === 'sign-in'
      ? ['Sign in', '/app/sign-in/link', 'Sign in']
      : ['Join the organization', '/app/invite/accept', 'Accept the invitation and sign in'];
  const body = [
    `<form method="post" action="${action}" class="stack">`,
    `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
    `<p>Press the button to ${what === 'sign-in' ? 'sign in' : 'join'}. The link works once.</p>`,
    `<button type="submit" autofocus>${escapeHtml(button)}</button></form>`,
  ].join('');
  show(res, title, body);
}

/** A link that was used (or expired, or never existed): said plainly, with the way forward. */
function usedLinkPage(res: Response, what: string): void {
  const body = `<p class="error" role="alert">This ${what} link has already been used or has expired. A link works once.</p>${EMAIL_FORM}`;
  show(res, `Link already used`, body, 401);
}

const tokenOf = (req: Request) => {
  const token = (req.body as Record<string, unknown> | undefined)?.token;
  if (typeof token !== 'string' || token.length === 0 || token.length > 512) {
    throw new RunledgerError(
      'invalid_input',
      'the link is incomplete: open it again from the e-mail',
    );
  }
  return token;
};

/** Exchanges a link token for a session; a used or unknown token shows the "already used" page. */
function exchange(deps: AppDeps, what: 'sign-in' | 'invite'): Anonymous {
  return async (req, res) => {
    assertSameOrigin(req, deps.publicOrigin);
    await deps.limits.verifyPerIp.hit(`ip:${req.ip ?? 'unknown'}`);
    const token = tokenOf(req);
    let signIn;
    try {
      signIn = await (what === 'sign-in'
        ? deps.runledger.auth.verifyLink(token)
        : deps.runledger.auth.acceptInvite(token));
    } catch (error) {
      if (error instanceof RunledgerError && error.code === 'unauthenticated') {
        usedLinkPage(res, what === 'sign-in' ? 'sign-in' : 'invitation');
        return;
      }
      throw error;
    }
    deps.sessions.start(res, signIn.user.id, signIn.org.id);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, takeWantedPage(req, res, deps.sessions.cookies));
  };
}

async function requestLink(deps: AppDeps, req: Request, res: Response): Promise<void> {
  assertSameOrigin(req, deps.publicOrigin);
  const parsed = AuthRequestBody.safeParse({ email: (req.body as Record<string, unknown>)?.email });
  if (!parsed.success) throw new RunledgerError('invalid_input', 'enter a valid e-mail address');
  await deps.limits.perIp.hit(`ip:${req.ip ?? 'unknown'}`);
  await deps.limits.perEmail.hit(`email:${parsed.data.email}`);
  const answer = withoutRemoteDevLink(
    req,
    await deps.runledger.auth.requestLink(parsed.data.email),
  );
  const dev =
    answer.dev_link === undefined
      ? ''
      : `<p>No e-mail is configured on this development server: <a href="${escapeHtml(answer.dev_link)}">open the sign-in link</a>.</p>`;
  const body = `<p role="status">If ${escapeHtml(parsed.data.email)} can sign in, a link is on its way. Open it in this browser; it works once.</p>${dev}`;
  show(res, 'Check your e-mail', body);
}

/** Sign-in, link and invite pages, sign-out, and `/` sending a browser to the app. */
export function mountSignIn(router: Router, deps: AppDeps): void {
  router.get('/', (req, res, next) => (prefersHtml(req) ? res.redirect(302, '/app') : next()));
  router.get('/app', (_req, res) => res.redirect(302, '/app/runs'));
  router.get(
    '/app/sign-in',
    anonymous(async (req, res) => {
      if ((await deps.sessions.personOf(req)) !== null) return res.redirect(303, '/app/runs');
      const out = req.query.signed_out === '1' ? '<p role="status">You are signed out.</p>' : '';
      show(res, 'Sign in', `${out}<p>We e-mail you a link that signs you in.</p>${EMAIL_FORM}`);
    }),
  );
  router.post(
    '/app/sign-in',
    anonymous((req, res) => requestLink(deps, req, res)),
  );
  // The links the e-mails carry: a browser gets the one-button page, any other client the API's answer.
  for (const [path, what] of [
    ['/auth/verify', 'sign-in'],
    ['/auth/accept-invite', 'invite'],
  ] as const) {
    router.get(path, (req, res, next) => {
      const token = req.query.token;
      if (!prefersHtml(req) || typeof token !== 'string' || token.length > 512) return next();
      res.locals.route = path;
      confirmPage(res, what, token);
    });
  }
  router.post('/app/sign-in/link', anonymous(exchange(deps, 'sign-in')));
  router.post('/app/invite/accept', anonymous(exchange(deps, 'invite')));
  router.post(
    '/app/sign-out',
    anonymous(async (req, res) => {
      assertSameOrigin(req, deps.publicOrigin);
      const session = await deps.sessions.personOf(req);
      if (session !== null)
        deps.sessions.checkCsrf(req, (req.body as Record<string, unknown>)?.csrf);
      deps.sessions.end(res);
      res.redirect(303, '/app/sign-in?signed_out=1');
    }),
  );
}
