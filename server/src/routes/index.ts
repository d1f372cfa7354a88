import type { Route } from '../http/route.js';
import { apiKeyRoutes } from './api-keys.js';
import { authRoutes, type AuthRouteDeps } from './auth.js';
import { metaRoutes } from './meta.js';
import { orgRoutes } from './org.js';
import { projectRoutes } from './projects.js';

/** Every route of the main API, in the order they appear in /openapi.json. */
export function allRoutes(deps: AuthRouteDeps): Route[] {
  return [
    ...metaRoutes(),
    ...authRoutes(deps),
    ...orgRoutes(deps),
    ...apiKeyRoutes(deps),
    ...projectRoutes(deps),
  ];
}
