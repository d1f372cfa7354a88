import type { Router } from 'express';
import { streamNdjson } from '../http/streaming.js';
import type { AppDeps } from './deps.js';
import { action, download, page } from './handlers.js';
import { auditPage } from './pages/audit.js';
import { orgActions } from './pages/org-actions.js';
import { orgPage } from './pages/org.js';
import { createProject, projectsPage, sheetPage } from './pages/projects.js';

/** Projects and sheets (everyone), the audit chain and the organization (owners only). */
export function mountOwnerPages(router: Router, deps: AppDeps): void {
  const owner = { owner: true };
  router.get('/app/projects', page(deps, projectsPage(deps)));
  router.post('/app/projects', action(deps, createProject(deps)));
  router.get('/app/sheets/:sheet_id', page(deps, sheetPage(deps)));
  router.get('/app/audit', page(deps, auditPage(deps), owner));
  router.get(
    '/app/audit/export',
    download(
      deps,
      ({ person, res }) => streamNdjson(res, deps.runledger.audit.export(person), 'audit.ndjson'),
      owner,
    ),
  );
  const org = orgActions(deps);
  router.get('/app/org', page(deps, orgPage(deps), owner));
  router.post('/app/org/settings', action(deps, org.settings, owner));
  router.post('/app/org/keys', action(deps, org.createKey, owner));
  router.post('/app/org/keys/:key_id/revoke', action(deps, org.revokeKey, owner));
  router.post('/app/org/members/:user_id/role', action(deps, org.role, owner));
  router.post('/app/org/invites', action(deps, org.invite, owner));
  router.post('/app/org/invites/:invite_id/revoke', action(deps, org.revokeInvite, owner));
}
