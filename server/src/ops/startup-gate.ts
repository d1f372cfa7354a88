import type { RequestListener } from 'node:http';

export interface StartupGate {
  /** What the listener serves: the gate's own answers until `open`, then the app. */
  handler: RequestListener;
  open(app: RequestListener): void;
}

/**
 * Lets the main listener bind before storage opens and migrates: meanwhile `GET /health` answers
 * 200 (the process is alive) and every other request 503 `not ready: starting`, so a load balancer
 * polling /ready waits instead of finding a closed port or a half-built app.
 */
export function startupGate(): StartupGate {
  let app: RequestListener | null = null;
  const starting: RequestListener = (req, res) => {
    const live = req.method === 'GET' && (req.url ?? '').split('?')[0] === '/health';
    res.statusCode = live ? 200 : 503;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.end(JSON.stringify(live ? { ok: true } : { detail: 'not ready: starting' }));
  };
  return {
    handler: (req, res) => (app ?? starting)(req, res),
    open: (opened) => {
      app = opened;
    },
  };
}
