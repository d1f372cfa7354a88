import express, { type Express, type Router } from 'express';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listen } from './listen.js';
import { segmentRouters } from './segment-routers.js';

/** Templates with shared shapes, literal and parameter last segments, and orders that matter. */
const ROUTES: readonly (readonly ['get' | 'post', string, 'rest'?])[] = [
  ['get', '/'],
  ['get', '/runs'],
  ['post', '/runs'],
  ['get', '/runs/{run_id}'],
  ['post', '/runs/{run_id}/receipt'],
  ['get', '/runs/{run_id}/receipt'],
  ['post', '/runs/{run_id}/verdict'],
  ['get', '/runs/{run_id}/checks/{check_id}'],
  ['get', '/runs/{run_id}/checks/latest'],
  ['get', '/org/members'],
  ['get', '/org/{org_id}'],
  ['post', '/org/members/{user_id}/role'],
  ['get', '/ledger/{org_id}/entries'],
  ['get', '/files/readme'],
  ['get', '/docs/readme'],
  ['get', '/docs/v{org_id}'],
  ['get', '/files/{org_id}/tile/{tile_path}', 'rest'],
  ['get', '/files/{org_id}/checkpoint'],
];

/** As mount.ts writes it: the rest parameter (always the last) as `*name`, the others as `:name`. */
const expressPath = (template: string, rest: boolean) =>
  (rest ? template.replace(/\{(\w+)\}$/, '*$1') : template).replace(/\{(\w+)\}/g, ':$1');

function handle(router: Router, index: number): void {
  const [method, template, rest] = ROUTES[index] ?? ['get', '/'];
  router[method](expressPath(template, rest === 'rest'), (req, res) => {
    res.json({ index, params: req.params });
  });
}

/** The reference: every route in one router, in declared order. */
function oneRouter(): Express {
  const app = express();
  const router = express.Router({ caseSensitive: true, strict: false });
  ROUTES.forEach((_, index) => handle(router, index));
  app.use(router);
  app.use((_req, res) => void res.status(404).json({ detail: 'not found' }));
  return app;
}

function byShape(): Express {
  const app = express();
  app.use(
    segmentRouters(
      ROUTES.map(([, path, rest]) => ({ path, spansSegments: rest === 'rest' })),
      (index, router) => handle(router, index),
    ),
  );
  app.use((_req, res) => void res.status(404).json({ detail: 'not found' }));
  return app;
}

const SEGMENTS = [
  'runs',
  'org',
  'ledger',
  'members',
  'receipt',
  'verdict',
  'checks',
  'latest',
  'role',
  'entries',
  'r1',
  'x',
  '',
  'Runs',
  '%72uns',
];

const pathArb = fc
  .tuple(fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 5 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.join('/')}${slash && segments.length > 0 ? '/' : ''}`);

async function answer(url: string, method: string, path: string) {
  const response = await fetch(`${url}${path}`, { method });
  return {
    status: response.status,
    allow: response.headers.get('allow'),
    body: await response.text(),
  };
}

describe('segment routers', () => {
  it('answer every path and method as one router holding all routes in order (property)', async () => {
    const [reference, shaped] = [
      await listen(oneRouter(), 0, '127.0.0.1'),
      await listen(byShape(), 0, '127.0.0.1'),
    ];
    let matched = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          pathArb,
          fc.constantFrom('GET', 'POST', 'OPTIONS'),
          async (path, method) => {
            const want = await answer(reference.url, method, path);
            if (want.status === 200 && method !== 'OPTIONS') matched += 1;
            expect(await answer(shaped.url, method, path)).toEqual(want);
          },
        ),
        {
          numRuns: 400,
          examples: [
            ['/runs/r1/receipt', 'POST'],
            ['/runs/r1/receipt/', 'GET'],
            ['/runs/r1/checks/latest', 'GET'],
            ['/org/members', 'GET'],
            ['/org/members', 'OPTIONS'],
            ['/runs/r1/verdict', 'OPTIONS'],
            ['/', 'GET'],
            ['/files/o1/tile/0/000.p/3', 'GET'],
            ['/files/o1/tile/x', 'GET'],
            ['/files/readme', 'GET'],
            ['/docs/v1', 'GET'],
          ],
        },
      );
    } finally {
      await Promise.all([reference.close(), shaped.close()]);
    }
    // Routes were reached, not only 404s compared.
    expect(matched).toBeGreaterThan(20);
  });
});
