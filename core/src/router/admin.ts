import { notFound } from '../errors.js';
import { pageQuery, toPaged } from '../paging.js';
import type { WorkerRecord } from '../ports/router-storage.js';
import type { Repositories } from '../ports/storage.js';
import type { RouterUseCases } from './api.js';
import type { RouterContext } from './context.js';
import { toWorker } from './views.js';

type AdminUseCases = Pick<RouterUseCases, 'summary' | 'listWorkers' | 'getWorker'>;

export function adminUseCases(ctx: RouterContext): AdminUseCases {
  const { storage, clock } = ctx;
  const withLeases = async (tx: Repositories, w: WorkerRecord, now: string) =>
    toWorker(w, (await tx.jobs.liveLeasesOf(w.worker_id, now)).length);
  return {
    async summary() {
      const now = clock.now().toISOString();
      return storage.read(async (tx) => ({
        members: await tx.routerMembers.counts(now),
        datasets: await tx.datasets.count(),
        jobs: await tx.jobs.countByStatus(),
        workers: await tx.workers.count(),
        nodes: await tx.computeNodes.count(),
      }));
    },

    async listWorkers(page) {
      const { query, limit } = pageQuery(page);
      const now = clock.now().toISOString();
      return storage.read(async (tx) => {
        const rows = await tx.workers.list(query);
        const shaped = [];
        for (const w of rows) shaped.push({ w, view: await withLeases(tx, w, now) });
        return toPaged(
          shaped,
          limit,
          (r) => ({ created_at: r.w.created_at, id: r.w.worker_id }),
          (r) => r.view,
        );
      });
    },

    async getWorker(workerId) {
      const now = clock.now().toISOString();
      return storage.read(async (tx) => {
        const w = await tx.workers.byId(workerId);
        if (w === null) throw notFound('worker');
        return withLeases(tx, w, now);
      });
    },
  };
}
