import type { Runledger } from '@runledger/core';
import {
  Dataset,
  DatasetAccess,
  DatasetAccessBody,
  DatasetCreateBody,
  DatasetList,
} from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';
import { DatasetParams } from './params.js';

export function datasetRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/datasets',
      summary: 'Creates a dataset, ready unless `staging: true`',
      tag: 'datasets',
      auth: 'none',
      body: DatasetCreateBody,
      status: 201,
      response: Dataset,
      handler: async ({ body }) => runledger.router.createDataset(body),
    }),
    defineRoute({
      method: 'get',
      path: '/datasets',
      summary: 'Datasets in creation order, paged',
      tag: 'datasets',
      auth: 'none',
      query: PageQuery,
      status: 200,
      response: DatasetList,
      handler: async ({ query }) => {
        const page = await runledger.router.listDatasets(pageOf(query));
        return { datasets: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/datasets/{dataset_id}',
      summary: 'One dataset',
      tag: 'datasets',
      auth: 'none',
      params: DatasetParams,
      status: 200,
      response: Dataset,
      errors: [404],
      handler: async ({ params }) => runledger.router.getDataset(params.dataset_id),
    }),
    defineRoute({
      method: 'post',
      path: '/datasets/{dataset_id}/access',
      summary: 'Grants an active member access to a dataset',
      description:
        'Writes a `dataset_access` receipt. 403 for an inactive (or expired) member; 409 while the dataset ' +
        'is not ready (pending, staging or failed); 404 for an unknown dataset or member. A repeated grant returns the first one.',
      tag: 'datasets',
      auth: 'none',
      params: DatasetParams,
      body: DatasetAccessBody,
      status: 200,
      response: DatasetAccess,
      errors: [403, 404, 409],
      handler: async ({ params, body }) =>
        runledger.router.grantDatasetAccess(params.dataset_id, body),
    }),
  ];
}
