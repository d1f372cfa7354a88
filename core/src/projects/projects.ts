import { notFound } from '../errors.js';
import { actorId } from '../actor.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import { pageQuery, toPaged } from '../paging.js';
import type { ProjectRecord } from '../ports/storage.js';
import type { Project, ProjectCreateBody } from '../schemas/identity.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Page } from '../paging.js';
import type { ProjectUseCases } from './api.js';

export function toProject(p: ProjectRecord): Project {
  return { id: p.id, name: p.name, created_at: p.created_at, created_by: p.created_by };
}

export function projectUseCases(deps: Deps): ProjectUseCases {
  const { storage, clock, random } = deps;

  return {
    async create(actor: Actor, input: ProjectCreateBody) {
      const project: ProjectRecord = {
        id: newId('prj', random),
        org_id: actor.orgId,
        name: input.name.trim(),
        created_at: nowIso(clock),
        created_by: actorId(actor),
      };
      await storage.write((tx) => tx.projects.insert(project));
      return toProject(project);
    },

    async list(actor: Actor, page: Page) {
      const { query, limit } = pageQuery(page);
      const rows = await storage.read((tx) => tx.projects.list(actor.orgId, query));
      return toPaged(rows, limit, (p) => ({ created_at: p.created_at, id: p.id }), toProject);
    },

    async get(actor: Actor, projectId: string) {
      const project = await storage.read((tx) => tx.projects.get(actor.orgId, projectId));
      if (!project) throw notFound('project');
      return toProject(project);
    },
  };
}
