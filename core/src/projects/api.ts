import type { Actor } from '../actor.js';
import type { Page, Paged } from '../paging.js';
import type { Project, ProjectCreateBody } from '../schemas/identity.js';

export interface ProjectUseCases {
  create(actor: Actor, input: ProjectCreateBody): Promise<Project>;
  list(actor: Actor, page: Page): Promise<Paged<Project>>;
  get(actor: Actor, projectId: string): Promise<Project>;
}
