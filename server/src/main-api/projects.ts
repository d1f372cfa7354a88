import type { Runledger } from '@runledger/core';
import { Project, ProjectCreateBody, ProjectList } from '@runledger/core/schemas';
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';

const ProjectParams = z.object({ project_id: z.string().min(1).max(200) }).strict();

export function projectRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/projects',
      summary: 'Creates a project',
      tag: 'projects',
      auth: 'any',
      body: ProjectCreateBody,
      status: 201,
      response: Project,
      handler: async ({ actor, body }) => runledger.projects.create(actor, body),
    }),
    defineRoute({
      method: 'get',
      path: '/projects',
      summary: 'Projects of the organization in creation order, paged',
      tag: 'projects',
      auth: 'any',
      query: PageQuery,
      status: 200,
      response: ProjectList,
      handler: async ({ actor, query }) => {
        const page = await runledger.projects.list(actor, pageOf(query));
        return { projects: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/projects/{project_id}',
      summary: 'One project (404 for another organization’s id)',
      tag: 'projects',
      auth: 'any',
      params: ProjectParams,
      status: 200,
      response: Project,
      errors: [404],
      handler: async ({ actor, params }) => runledger.projects.get(actor, params.project_id),
    }),
  ];
}
