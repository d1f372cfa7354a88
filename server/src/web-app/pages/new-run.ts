import type { AppDeps } from '../deps.js';
import { options } from '../fragments.js';
import type { PageHandler } from '../handlers.js';
import { csrfField } from '../layout.js';

/** GET /app/runs/new: project, flight sheet and title; evidence and the submission follow on the run's page. */
export function newRunPage(deps: AppDeps): PageHandler {
  return async ({ person, csrf }) => {
    const [projects, sheets] = await Promise.all([
      deps.runledger.projects.list(person, { limit: 200 }),
      deps.runledger.flightSheets.list(person, { limit: 200 }),
    ]);
    if (projects.items.length === 0) {
      const body = `<p class="notice">A run belongs to a project, and this organization has none yet: <a href="/app/projects">create a project</a> first.</p>`;
      return { title: 'New run', body, current: '/app/runs/new' };
    }
    const body = [
      '<form method="post" action="/app/runs" class="stack">',
      csrfField(csrf),
      '<label for="project">Project</label><select id="project" name="project_id" required>',
      options(projects.items.map((p) => ({ value: p.id, label: p.name }))),
      '</select>',
      '<label for="sheet">Flight sheet</label><select id="sheet" name="flight_sheet_id" required>',
      options(
        sheets.items.map((s) => ({
          value: s.id,
          label: `${s.name} (${s.slug} ${s.version}, ${s.audit_checks.length} rules)`,
        })),
      ),
      '</select>',
      '<label for="title">Title</label><input id="title" name="title" required maxlength="200">',
      '<button type="submit">Create the run</button></form>',
      `<p class="muted">Next, on the run's page: evidence (text or files up to 25 MB), the JSON submission, then the audit.</p>`,
    ].join('');
    return { title: 'New run', body, current: '/app/runs/new' };
  };
}
