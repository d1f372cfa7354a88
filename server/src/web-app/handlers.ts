import { RunledgerError } from '@runledger/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { STATUS_OF } from '../http/errors.js';
import { escapeHtml } from '../html/escape.js';
import type { ErrorPage } from '../http/route-spec.js';
import { APP_CSP, appHeaders, sendHtml } from './csp.js';
import type { AppDeps } from './deps.js';
import { layout, type Frame } from './layout.js';
import { rememberWantedPage } from './return-to.js';
import { assertSameOrigin } from './same-origin.js';
import type { Person } from './session.js';

export interface PageContext {
  req: Request;
  res: Response;
  person: Person;
  csrf: string;
}

/** A page to show, or where to send the browser next (303 after a form). */
export type Outcome =
  { title: string; body: string; current?: string; status?: number } | { redirect: string };

export type PageHandler = (ctx: PageContext) => Promise<Outcome>;

interface Options {
  /** Owner pages: anyone else gets a 403 page before the handler runs. */
  owner?: boolean;
  /** The handler checks the CSRF token itself (a multipart upload reads it from the body it streams). */
  csrfInHandler?: boolean;
}

/** The HTML of a refused request: its status and the same `detail` the API would answer. */
export function errorHtml(status: number, detail: string, frame: Frame | null): string {
  const heading =
    { 403: 'Not allowed', 404: 'Not found', 409: 'Not possible now' }[status] ?? 'Refused';
  const body = `<p class="error" role="alert">${escapeHtml(detail)}</p><p><a href="/app/runs">Back to the runs</a></p>`;
  return layout(`${heading} (${status})`, body, frame);
}

/** Sends a refusal as a page now (no security event: an unknown page, say). */
export function errorPage(res: Response, error: RunledgerError, frame: Frame | null): void {
  sendHtml(res, STATUS_OF[error.code], errorHtml(STATUS_OF[error.code], error.message, frame));
}

/**
 * Hands an error to the app's one error handler, which logs refusals as security events (as for the
 * API) and, for a browser, renders this page; anything unexpected stays a logged 500.
 */
export function fail(res: Response, next: NextFunction, error: unknown, frame: Frame | null) {
  if (error instanceof RunledgerError) {
    appHeaders(res);
    res.locals.errorPage = {
      csp: APP_CSP,
      render: (status: number, detail: string) => errorHtml(status, detail, frame),
    } satisfies ErrorPage;
  }
  next(error);
}

function send(res: Response, outcome: Outcome, frame: Frame): void {
  if ('redirect' in outcome) {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, outcome.redirect);
    return;
  }
  sendHtml(
    res,
    outcome.status ?? 200,
    layout(outcome.title, outcome.body, { ...frame, current: outcome.current }),
  );
}

/** Wraps a page (GET) or a form's target (POST): session, owner rule, CSRF, errors as pages. */
function wrap(
  deps: AppDeps,
  handler: PageHandler,
  options: Options,
  post: boolean,
): RequestHandler {
  return async (req, res, next) => {
    res.locals.route = req.route ? `${req.baseUrl}${String(req.route.path)}` : '/app';
    let frame: Frame | null = null;
    try {
      if (post) assertSameOrigin(req, deps.publicOrigin);
      const session = await deps.sessions.personOf(req);
      if (session === null) {
        if (!post) rememberWantedPage(req, res, deps.sessions.cookies);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, '/app/sign-in');
        return;
      }
      frame = { person: session.person, csrf: session.csrf };
      if (post && !options.csrfInHandler) {
        deps.sessions.checkCsrf(req, (req.body as Record<string, unknown> | undefined)?.csrf);
      }
      if (options.owner && session.person.role !== 'owner') {
        throw new RunledgerError('forbidden', 'only an organization owner may open this page');
      }
      send(res, await handler({ req, res, ...session }), frame);
    } catch (error) {
      fail(res, next, error, frame);
    }
  };
}

export const page = (deps: AppDeps, handler: PageHandler, options: Options = {}) =>
  wrap(deps, handler, options, false);
export const action = (deps: AppDeps, handler: PageHandler, options: Options = {}) =>
  wrap(deps, handler, options, true);

/** A signed-in GET that answers bytes (a download), with the same session, owner rule and error pages. */
export function download(
  deps: AppDeps,
  handler: (ctx: PageContext) => Promise<void>,
  options: Options = {},
): RequestHandler {
  return async (req, res, next) => {
    res.locals.route = req.route ? `${req.baseUrl}${String(req.route.path)}` : '/app';
    let frame: Frame | null = null;
    try {
      const session = await deps.sessions.personOf(req);
      if (session === null) {
        rememberWantedPage(req, res, deps.sessions.cookies);
        return void res.redirect(303, '/app/sign-in');
      }
      frame = { person: session.person, csrf: session.csrf };
      if (options.owner && session.person.role !== 'owner') {
        throw new RunledgerError('forbidden', 'only an organization owner may open this page');
      }
      await handler({ req, res, ...session });
    } catch (error) {
      fail(res, next, error, frame);
    }
  };
}
