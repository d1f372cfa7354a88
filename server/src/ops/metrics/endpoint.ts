import type { RequestListener } from 'node:http';
import type { Registry } from 'prom-client';

/** The metrics listener's one route: `GET /metrics` in the Prometheus text format; anything else 404. */
export function metricsEndpoint(
  registry: Registry,
  onError: (error: unknown) => void,
): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ detail: 'only GET /metrics is served here' }));
      return;
    }
    registry.metrics().then(
      (text) => {
        res.setHeader('content-type', registry.contentType);
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        res.statusCode = 503;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ detail: 'metrics could not be collected' }));
      },
    );
  };
}
