import express, { type RequestHandler, type Router } from 'express';

/** `/runs/{run_id}/receipt` → `runs`; the raw request path's first segment likewise. */
export const firstSegment = (path: string): string => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

/**
 * One Express router per first path segment (`runs`, `org`, `ledger`…), each holding its routes in
 * their declared order, and a handler that hands a request to its segment's router only. Express
 * tries a router's routes one by one; with over a hundred routes in one router, a request would be
 * matched against most of them. A segment no route has goes on to the next handler (the 404).
 */
export function segmentRouters(
  paths: readonly string[],
  mount: (index: number, router: Router) => void,
): RequestHandler {
  const routers = new Map<string, Router>();
  paths.forEach((path, index) => {
    const segment = firstSegment(path);
    let router = routers.get(segment);
    if (router === undefined) {
      router = express.Router({ caseSensitive: true, strict: false });
      routers.set(segment, router);
    }
    mount(index, router);
  });
  return (req, res, next) => {
    const router = routers.get(firstSegment(req.path));
    if (router === undefined) next();
    else router(req, res, next);
  };
}
