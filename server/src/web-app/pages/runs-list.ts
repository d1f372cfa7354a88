import { RunState } from '@runledger/core/schemas';
import { RunledgerError } from '@runledger/core';
import { z } from 'zod';
import { escapeHtml } from '../../html/escape.js';
import type { AppDeps } from '../deps.js';
import { code, doneNotice, options, queryOf, table, text, time } from '../fragments.js';
import type { PageHandler } from '../handlers.js';

const ListQuery = z.object({
  state: z.union([RunState, z.literal('')]).optional(),
  project_id: z.string().max(100).optional(),
  sheet: z.string().max(64).optional(),
  after: z.string().max(512).optional(),
  done: z.string().max(20).optional(),
});

export const RUNS_PAGE_SIZE = 50;

interface Choices {
  projects: { id: string; name: string }[];
  /** Sheet slugs with a name, each once (a filter covers every version). */
  sheets: { slug: string; name: string }[];
}

function filters(query: z.output<typeof ListQuery>, { projects, sheets }: Choices) {
  return [
    '<form method="get" action="/app/runs" class="filters" aria-label="Filter the runs">',
    '<label>State<select name="state">',
    options(
      [{ value: '', label: 'Any state' }, ...RunState.options.map((s) => ({ value: s, label: s }))],
      query.state ?? '',
    ),
    '</select></label>',
    '<label>Project<select name="project_id">',
    options(
      [
        { value: '', label: 'Any project' },
        ...projects.map((p) => ({ value: p.id, label: p.name })),
      ],
      query.project_id ?? '',
    ),
    '</select></label>',
    '<label>Flight sheet<select name="sheet">',
    options(
      [
        { value: '', label: 'Any flight sheet' },
        ...sheets.map((s) => ({ value: s.slug, label: s.name })),
      ],
      query.sheet ?? '',
    ),
    '</select></label>',
    '<button type="submit" class="secondary">Filter</button></form>',
  ].join('');
}

/** GET /app/runs: the organization's runs in creation order, filtered by state and project, 50 a page. */
export function runsListPage(deps: AppDeps): PageHandler {
  return async ({ req, person }) => {
    const parsed = ListQuery.safeParse(req.query);
    if (!parsed.success) throw new RunledgerError('invalid_input', 'unknown filter value');
    const query = parsed.data;
    const [page, projects, sheets] = await Promise.all([
      deps.runledger.runs.list(person, {
        limit: RUNS_PAGE_SIZE,
        ...(query.after ? { after: query.after } : {}),
        ...(query.project_id ? { project_id: query.project_id } : {}),
        ...(query.state ? { state: query.state } : {}),
        ...(query.sheet ? { flight_sheet_slug: query.sheet } : {}),
      }),
      deps.runledger.projects.list(person, { limit: 200 }),
      deps.runledger.flightSheets.list(person, { limit: 200 }),
    ]);
    const slugs = new Map(sheets.items.map((s) => [s.slug, s.name]));
    const choices = {
      projects: projects.items,
      sheets: [...slugs].map(([slug, name]) => ({ slug, name })),
    };
    const names = new Map(projects.items.map((p) => [p.id, p.name]));
    const rows = page.items.map((run) => [
      `<a href="/app/runs/${encodeURIComponent(run.id)}">${text(run.title)}</a>`,
      `<span class="state">${escapeHtml(run.state)}</span>`,
      text(names.get(run.project_id) ?? run.project_id),
      `${code(run.flight_sheet_id)} ${escapeHtml(run.flight_sheet_version)}`,
      time(run.created_at),
    ]);
    const keep = { state: query.state, project_id: query.project_id, sheet: query.sheet };
    const pager = [
      query.after ? `<a href="/app/runs${queryOf(keep)}">First page</a>` : '',
      page.next
        ? `<a href="/app/runs${queryOf({ ...keep, after: page.next })}" rel="next">Next page</a>`
        : '',
    ].join('');
    const body = [
      doneNotice(query.done),
      '<p><a href="/app/runs/new">Create a run</a></p>',
      filters(query, choices),
      table('Runs', ['Title', 'State', 'Project', 'Flight sheet', 'Created'], rows),
      `<nav class="pager" aria-label="Pages">${pager}</nav>`,
    ].join('');
    return { title: 'Runs', body, current: '/app/runs' };
  };
}
