import express, { type RequestHandler, type Router } from 'express';

/** `/runs/{run_id}/receipt` → `runs`; the raw request path's first segment likewise. */
export const firstSegment = (path: string): string => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

/** A route template's segment that holds a parameter (`{run_id}`, or `{id}.pdf`): not literal. */
const isParam = (segment: string) => segment.includes('{');

/**
 * A path's shape: its first segment, its number of segments and its last segment, so that only
 * routes of that shape are tried. One trailing slash is not a segment: the routers are not strict.
 */
function shapeOf(path: string): { first: string; count: number; last: string } {
  const end = path.length > 1 && path.endsWith('/') ? path.length - 1 : path.length;
  let count = 1;
  for (let i = path.indexOf('/', 1); i !== -1 && i < end; i = path.indexOf('/', i + 1)) count += 1;
  return {
    first: firstSegment(path),
    count,
    last: path.slice(path.lastIndexOf('/', end - 1) + 1, end),
  };
}

/** Stands for any last segment in a key: the shape has a route whose last segment is a parameter. */
const ANY = '{}';

const keyOf = (first: string, count: number, last: string) => `${first}/${count}/${last}`;

/** A route's path template, and whether a parameter of it spans several segments (`*name`). */
export interface RouteTemplate {
  path: string;
  spansSegments?: boolean;
}

/** The key of a first segment whose routes all share one router: one of them spans segments. */
const WHOLE = '*';

/**
 * One Express router per path shape (first segment, number of segments, last segment), each holding
 * its routes in their declared order, and a handler that hands a request to its shape's router
 * only. Express tries a router's routes one by one, matching each one's regular expression; with a
 * router per first segment, `POST /runs/{run_id}/receipt` was tried against a dozen other
 * `/runs/{run_id}/…` routes first. A route template can only match paths of its own number of
 * segments, and one whose last segment is literal only paths ending in it; where some route of a
 * shape ends in a parameter, all routes of that first segment and length share one router, and
 * where some route of a first segment has a parameter spanning segments, all routes of that first
 * segment do, so the declared order still decides between them. A shape no route has goes on to
 * the next handler (the 404).
 */
export function segmentRouters(
  templates: readonly RouteTemplate[],
  mount: (index: number, router: Router) => void,
): RequestHandler {
  const shapes = templates.map(({ path }) => shapeOf(path));
  const whole = new Set(
    templates.flatMap(({ path, spansSegments }) => (spansSegments ? [firstSegment(path)] : [])),
  );
  const paramLast = new Set(
    shapes.flatMap(({ first, count, last }) => (isParam(last) ? [keyOf(first, count, ANY)] : [])),
  );
  const routers = new Map<string, Router>();
  shapes.forEach(({ first, count, last }, index) => {
    const any = keyOf(first, count, ANY);
    const key = whole.has(first)
      ? keyOf(first, 0, WHOLE)
      : paramLast.has(any)
        ? any
        : keyOf(first, count, last);
    let router = routers.get(key);
    if (router === undefined) {
      router = express.Router({ caseSensitive: true, strict: false });
      routers.set(key, router);
    }
    mount(index, router);
  });
  return (req, res, next) => {
    const { first, count, last } = shapeOf(req.path);
    const router = whole.has(first)
      ? routers.get(keyOf(first, 0, WHOLE))
      : (routers.get(keyOf(first, count, last)) ?? routers.get(keyOf(first, count, ANY)));
    if (router === undefined) next();
    else router(req, res, next);
  };
}
