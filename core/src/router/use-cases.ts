import type { Deps } from '../deps.js';
import type { RouterUseCases } from './api.js';
import { adminUseCases } from './admin.js';
import { computeUseCases } from './compute.js';
import { routerContext } from './context.js';
import { datasetUseCases } from './datasets.js';
import { jobUseCases } from './jobs.js';
import { memberUseCases } from './members.js';
import { paymentUseCases } from './payments.js';
import { sweeperUseCases } from './sweeper.js';
import { workerUseCases } from './workers.js';

/** The router API v0.1 over the ports: members, payments, datasets, compute, jobs, workers, sweeper, admin. */
export function routerUseCases(deps: Deps): RouterUseCases {
  const ctx = routerContext(deps);
  return {
    ...memberUseCases(ctx),
    ...paymentUseCases(ctx),
    ...datasetUseCases(ctx),
    ...computeUseCases(ctx),
    ...jobUseCases(ctx),
    ...workerUseCases(ctx),
    ...sweeperUseCases(ctx),
    ...adminUseCases(ctx),
    flushOutbox: () => ctx.outbox.flush(),
  };
}
