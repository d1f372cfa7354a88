import { conflict, notFound } from '../errors.js';
import { pageQuery, toPaged } from '../paging.js';
import type { DatasetRecord } from '../ports/router-storage.js';
import type { RouterUseCases } from './api.js';
import { activeMember, type RouterContext } from './context.js';
import { routerId } from './ids.js';
import { assertDatasetReady, nextDatasetStatus } from './staging.js';
import { toDataset } from './views.js';

type DatasetUseCases = Pick<
  RouterUseCases,
  'createDataset' | 'listDatasets' | 'getDataset' | 'grantDatasetAccess' | 'stageDataset'
>;

export function datasetUseCases(ctx: RouterContext): DatasetUseCases {
  const { storage, clock, random, outbox } = ctx;
  return {
    async createDataset(input) {
      const at = clock.now().toISOString();
      const dataset: DatasetRecord = {
        dataset_id: routerId('dst', random),
        name: input.name.trim(),
        description: input.description ?? null,
        status: input.staging === true ? 'pending' : 'ready',
        error: null,
        created_at: at,
        updated_at: at,
      };
      await storage.write((tx) => tx.datasets.insert(dataset));
      return toDataset(dataset);
    },

    async listDatasets(page) {
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.datasets.list(query));
      return toPaged(
        rows,
        limit,
        (d) => ({ created_at: d.created_at, id: d.dataset_id }),
        toDataset,
      );
    },

    async getDataset(datasetId) {
      const dataset = await storage.read((tx) => tx.datasets.byId(datasetId));
      if (dataset === null) throw notFound('dataset');
      return toDataset(dataset);
    },

    async stageDataset(datasetId, input) {
      const at = clock.now().toISOString();
      return storage.write(async (tx) => {
        const dataset = await tx.datasets.byId(datasetId);
        if (dataset === null) throw notFound('dataset');
        const change = {
          status: nextDatasetStatus(dataset.status, input),
          error: input.error ?? null,
          updated_at: at,
        };
        if (!(await tx.datasets.setStatus(datasetId, dataset.status, change))) {
          throw conflict('the dataset changed meanwhile; try again');
        }
        return toDataset({ ...dataset, ...change });
      });
    },

    async grantDatasetAccess(datasetId, input) {
      const now = clock.now();
      const at = now.toISOString();
      return outbox.write(async (tx, receipts) => {
        const dataset = await tx.datasets.byId(datasetId);
        if (dataset === null) throw notFound('dataset');
        await activeMember(tx, input.member_id, now);
        assertDatasetReady(dataset.status);
        // A repeated grant answers with the first one and writes no second receipt.
        const existing = await tx.datasets.accessOf(datasetId, input.member_id);
        if (existing !== null) return existing;
        const r = ctx.receipt('dataset_access', at, {
          dataset_id: datasetId,
          member_id: input.member_id,
        });
        const grant = {
          dataset_id: datasetId,
          member_id: input.member_id,
          receipt_id: r.receipt_id,
          granted_at: at,
        };
        await tx.datasets.grantAccess(grant);
        receipts.push(r);
        return grant;
      });
    },
  };
}
