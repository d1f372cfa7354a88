import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { accessLog } from './http/access-log.js';
import { markEmptyBody } from './http/empty-body.js';
import { errorHandler, notFoundRoute } from './http/errors.js';
import { openApiDocument, type ApiDescription } from './http/openapi.js';
import { checkJsonBody } from './http/json-bytes.js';
import { requestEnvelope } from './http/request-envelope.js';
import type { HttpDeps, Route } from './http/route.js';
import { firstSegment, segmentRouters } from './http/segment-routers.js';
import { httpMetrics } from './ops/metrics/http-metrics.js';
import type { Metrics } from './ops/metrics/registry.js';

export interface AppOptions {
  routes: readonly Route[];
  deps: HttpDeps;
  logger: Logger;
  /** Where request counts and latencies go, and under which API label; none when absent. */
  metrics?: { metrics: Metrics; api: 'main' | 'router' };
  jsonBodyLimit: number;
  /** Which API this app serves in /openapi.json. */
  api: ApiDescription;
  /**
   * Browser pages (the web app, docs/app.md), mounted before the API routes, and the first path
   * segments they live under: other requests skip them.
   */
  pages?: { router: Router; segments: ReadonlySet<string> };
}

/**
 * The Express app: security headers, ids, logging and metrics (one envelope), JSON parsing, the
 * declared routes, one error handler.
 */
export function createApp({
  routes,
  deps,
  logger,
  metrics,
  jsonBodyLimit,
  api,
  pages,
}: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(
    requestEnvelope([
      accessLog(logger),
      ...(metrics ? [httpMetrics(metrics.metrics, metrics.api)] : []),
    ]),
  );
  // Routes that sign their body (the payment webhook) read it as bytes first; the JSON parser then
  // skips it. Requests of other path shapes never enter their routers.
  const rawRoutes = routes.filter((route) => route.mountRawParser !== undefined);
  if (rawRoutes.length > 0) {
    app.use(
      segmentRouters(rawRoutes, (i, router) =>
        rawRoutes[i]?.mountRawParser?.(router, jsonBodyLimit),
      ),
    );
  }
  app.use(
    express.json({
      limit: jsonBodyLimit,
      strict: true,
      type: 'application/json',
      verify(req, res, bytes, charset) {
        markEmptyBody(req, res, bytes);
        checkJsonBody(bytes, charset);
      },
    }),
  );

  if (pages) {
    const { router: pageRouter, segments } = pages;
    app.use((req, res, next) =>
      segments.has(firstSegment(req.path)) ? pageRouter(req, res, next) : next(),
    );
  }
  const document = openApiDocument(routes, api);
  const openApi = (router: Router) =>
    router.get('/openapi.json', (_req, res) => {
      res.locals.route = '/openapi.json';
      res.json(document);
    });
  const templates = [...routes, { path: '/openapi.json' }];
  app.use(
    segmentRouters(templates, (i, router) => {
      const route = routes[i];
      if (route === undefined) openApi(router);
      else route.mount(router, deps);
    }),
  );

  app.use(notFoundRoute);
  app.use(errorHandler(logger));
  return app;
}
