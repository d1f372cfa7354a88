import express, { type Router } from 'express';
import { RunledgerError } from '@runledger/core';
import { checkRequestValue } from '../http/request-text.js';
import { mountAssets } from './assets.js';
import { APP_CSP } from './csp.js';
import type { AppDeps } from './deps.js';
import { action, errorHtml, errorPage, page } from './handlers.js';
import { mountOwnerPages } from './owner-routes.js';
import { mountLedgerPages } from './pages/ledger.js';
import { newRunPage } from './pages/new-run.js';
import { evidenceDownload, runActions } from './pages/run-actions.js';
import { runPage } from './pages/run-page.js';
import { runsListPage } from './pages/runs-list.js';
import { mountSignIn } from './pages/sign-in.js';
import { mountWebhookPages } from './webhook-routes.js';

export type { AppDeps } from './deps.js';

/** A body the form parser refuses (too large, malformed) is answered as a page too. */
const APP_ERROR_PAGE = {
  csp: APP_CSP,
  render: (status: number, detail: string) => errorHtml(status, detail, null),
};
export { sessions, type Sessions } from './session.js';

/**
 * The first path segments of every page: `/` (a browser sent on to /app), `/app/…`, and the
 * e-mailed links under `/auth/…` (a browser gets a one-button page). The server hands the web app
 * only requests under these (`web-app/segments.test.ts` checks every mounted page).
 */
export const PAGE_SEGMENTS: ReadonlySet<string> = new Set(['', 'app', 'auth']);

/**
 * The web app (docs/app.md): server-rendered pages under /app over the same use cases as the API.
 * Form bodies are parsed here only, with the API's text rule (well-formed Unicode, no NUL).
 */
export function webApp(deps: AppDeps): Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  const forms = express.urlencoded({ extended: false, limit: deps.formLimit, parameterLimit: 20 });
  router.use('/app', (req, res, next) => {
    res.locals.errorPage = APP_ERROR_PAGE;
    if (req.method !== 'POST' || req.is('multipart/form-data')) return next();
    forms(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        checkRequestValue(req.body ?? {}, 'body');
      } catch (problem) {
        return next(problem);
      }
      next();
    });
  });
  mountAssets(router);
  mountSignIn(router, deps);
  mountRunPages(router, deps);
  mountLedgerPages(router, deps);
  mountOwnerPages(router, deps);
  mountWebhookPages(router, deps);
  router.use('/app', (_req, res) => {
    res.locals.route = '/app/*';
    errorPage(res, new RunledgerError('not_found', 'there is no such page'), null);
  });
  return router;
}

function mountRunPages(router: Router, deps: AppDeps): void {
  const actions = runActions(deps);
  router.get('/app/runs', page(deps, runsListPage(deps)));
  router.get('/app/runs/new', page(deps, newRunPage(deps)));
  router.post('/app/runs', action(deps, actions.create));
  router.get('/app/runs/:run_id', page(deps, runPage(deps)));
  router.get('/app/runs/:run_id/evidence/:evidence_id/download', evidenceDownload(deps));
  router.post('/app/runs/:run_id/evidence', action(deps, actions.evidence));
  router.post(
    '/app/runs/:run_id/evidence/upload',
    action(deps, actions.upload, { csrfInHandler: true }),
  );
  router.post('/app/runs/:run_id/submission', action(deps, actions.submission));
  router.post('/app/runs/:run_id/audit', action(deps, actions.audit));
  router.post('/app/runs/:run_id/checks/:check_id', action(deps, actions.grade));
  router.post('/app/runs/:run_id/findings', action(deps, actions.findings));
  router.post('/app/runs/:run_id/decision', action(deps, actions.decision));
  router.post('/app/runs/:run_id/receipt', action(deps, actions.mint));
}
