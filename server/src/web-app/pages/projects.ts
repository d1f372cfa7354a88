import { tierOf } from '@runledger/core';
import { ProjectCreateBody } from '@runledger/core/schemas';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, doneNotice, queryOf, table, text, time } from '../fragments.js';
import { fieldsOf, parseFields } from '../form.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';

/** GET /app/projects: the projects (with a create form) and the flight sheets anyone can run. */
export function projectsPage(deps: AppDeps): PageHandler {
  return async ({ req, person, csrf }) => {
    const [projects, sheets] = await Promise.all([
      deps.runledger.projects.list(person, { limit: 200 }),
      deps.runledger.flightSheets.list(person, { limit: 200 }),
    ]);
    const projectRows = projects.items.map((p) => [
      `<a href="/app/runs${queryOf({ project_id: p.id })}">${text(p.name)}</a>`,
      code(p.id),
      time(p.created_at),
    ]);
    const sheetRows = sheets.items.map((s) => [
      `<a href="/app/sheets/${encodeURIComponent(s.id)}">${text(s.name)}</a>`,
      `${code(s.slug)} ${escapeHtml(s.version)}`,
      text(s.lane),
      String(s.audit_checks.length),
      s.builtin ? 'built in' : 'this organization',
    ]);
    const body = [
      doneNotice(req.query.done),
      '<h2>Projects</h2>',
      table('Projects', ['Name', 'Id', 'Created'], projectRows),
      `<form method="post" action="/app/projects" class="stack">${csrfField(csrf)}`,
      '<label for="project-name">New project name</label><input id="project-name" name="name" required maxlength="200">',
      '<button type="submit">Create the project</button></form>',
      '<h2>Flight sheets</h2>',
      table('Flight sheets', ['Name', 'Slug and version', 'Lane', 'Rules', 'Source'], sheetRows),
    ].join('');
    return { title: 'Projects and flight sheets', body, current: '/app/projects' };
  };
}

export const createProject =
  (deps: AppDeps): PageHandler =>
  async ({ req, person }) => {
    await deps.runledger.projects.create(
      person,
      parseFields(ProjectCreateBody, { name: fieldsOf(req).name }),
    );
    return { redirect: '/app/projects?done=saved' };
  };

/** GET /app/sheets/:id: one flight sheet version's rules, and the other versions of its slug. */
export function sheetPage(deps: AppDeps): PageHandler {
  return async ({ req, person }) => {
    const sheet = await deps.runledger.flightSheets.get(person, String(req.params.sheet_id));
    const all = await deps.runledger.flightSheets.list(person, { limit: 200 });
    const versions = all.items
      .filter((s) => s.slug === sheet.slug)
      .map((s) => [
        s.id === sheet.id
          ? `${escapeHtml(s.version)} (this one)`
          : `<a href="/app/sheets/${encodeURIComponent(s.id)}">${escapeHtml(s.version)}</a>`,
        code(s.sha256),
      ]);
    const rules = sheet.audit_checks.map((rule) => [
      `${text(rule.label)}<br>${code(rule.key)}`,
      escapeHtml(rule.category),
      escapeHtml(rule.kind),
      escapeHtml(rule.severity),
      escapeHtml(tierOf(rule.severity)),
      rule.kind === 'checklist' ? text(rule.guidance) : code(JSON.stringify(rule.check)),
    ]);
    const body = [
      `<p>${text(sheet.summary)}</p>`,
      `<p>${code(sheet.slug)} version ${escapeHtml(sheet.version)}, lane ${text(sheet.lane)}; passes at ${sheet.pass_threshold}, fails below ${sheet.fail_threshold}.</p>`,
      '<h2>Rules</h2>',
      table('Rules', ['Rule', 'Category', 'Kind', 'Severity', 'Tier', 'Check or guidance'], rules),
      '<h2>Versions</h2>',
      table('Versions', ['Version', 'SHA-256'], versions),
    ].join('');
    return { title: sheet.name, body, current: '/app/projects' };
  };
}
