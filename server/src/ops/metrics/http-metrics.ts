import type { FinishedRequest } from '../../http/request-envelope.js';
import type { Metrics } from './registry.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Router API calls made under a lease token: a 409 there is a refused (stale, expired, wrong) token. */
const UNDER_LEASE = /^\/workers\/jobs\/\{job_id\}\//;

/**
 * Counts and times every answer by declared route template (never the raw path, which may carry a
 * token and would make one series per id), and derives the lease outcomes of the router API.
 */
export function httpMetrics(metrics: Metrics, api: 'main' | 'router'): FinishedRequest {
  return (req, res, seconds) => {
    const route = typeof res.locals.route === 'string' ? res.locals.route : '(unmatched)';
    const labels = {
      api,
      method: METHODS.has(req.method) ? req.method : 'OTHER',
      route,
      status: String(res.statusCode),
    };
    metrics.httpDuration.observe(labels, seconds);
    metrics.httpRequests.inc(labels);
    if (api !== 'router') return;
    if (route === '/workers/jobs/lease' && res.statusCode === 200) {
      metrics.leaseOutcomes.inc({ outcome: 'leased' });
    } else if (UNDER_LEASE.test(route) && res.statusCode === 409) {
      metrics.leaseOutcomes.inc({ outcome: 'stale_token' });
    }
  };
}
