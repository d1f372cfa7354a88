import type { Runledger } from '@runledger/core';
import type { Route } from '../http/route.js';
import { adminRoutes } from './admin.js';
import { computeRoutes } from './compute.js';
import { datasetRoutes } from './datasets.js';
import { healthRoutes } from './health.js';
import { jobRoutes } from './jobs.js';
import { memberRoutes } from './members.js';
import { workerRoutes } from './workers.js';

export { ROUTER_API } from './components.js';

export interface RouterRouteDeps {
  runledger: Runledger;
  /** WORKER_REGISTRATION_KEY; null answers 503 on POST /workers/register. */
  registrationKey: string | null;
}

/** Every route of the router API v0.1 (docs/router.md, Routes), in the order of /openapi.json. */
export function routerRoutes(deps: RouterRouteDeps): Route[] {
  return [
    ...healthRoutes(),
    ...adminRoutes(deps),
    ...memberRoutes(deps),
    ...datasetRoutes(deps),
    ...computeRoutes(deps),
    ...jobRoutes(deps),
    ...workerRoutes(deps),
  ];
}
