import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields, morePages, table } from '../output.js';

export function flightSheetCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('flight-sheets', 'the rulebooks runs are audited against', (sheets) =>
    sheets
      .command(
        'list',
        'list the built-in sheets and your organization’s own',
        (y) =>
          y
            .option('lane', { type: 'string', describe: 'only this lane' })
            .option('limit', { type: 'number' })
            .option('after', { type: 'string' }),
        async (argv) => {
          const context = await contextOf(argv);
          const page = await ok(
            mainApi(context).GET('/flight-sheets', {
              params: { query: { lane: argv.lane, limit: argv.limit, after: argv.after } },
            }),
          );
          emit(
            context.json,
            page,
            () =>
              table(page.flight_sheets, [
                ['SLUG', (s) => s.slug],
                ['VERSION', (s) => s.version],
                ['LANE', (s) => s.lane],
                ['RULES', (s) => s.audit_checks.length],
                ['NAME', (s) => s.name],
              ]) + morePages(page.next, '--after'),
          );
        },
      )
      .command(
        'show <sheet>',
        'show one sheet (an id, or a slug for its newest version)',
        (y) => y.positional('sheet', { type: 'string', demandOption: true }),
        async (argv) => {
          const context = await contextOf(argv);
          const sheet = await ok(
            mainApi(context).GET('/flight-sheets/{id_or_slug}', {
              params: { path: { id_or_slug: argv.sheet } },
            }),
          );
          emit(context.json, sheet, () =>
            [
              fields([
                ['id', sheet.id],
                ['name', `${sheet.name} (${sheet.slug} ${sheet.version})`],
                ['lane', sheet.lane],
                ['thresholds', `pass ≥ ${sheet.pass_threshold}, fail < ${sheet.fail_threshold}`],
                ['sha256', sheet.sha256],
                ['summary', sheet.summary],
              ]),
              '',
              table(sheet.audit_checks, [
                ['KEY', (r) => r.key],
                ['KIND', (r) => r.kind],
                ['CATEGORY', (r) => r.category],
                ['SEVERITY', (r) => r.severity],
                ['LABEL', (r) => r.label],
              ]),
            ].join('\n'),
          );
        },
      )
      .demandCommand(1, 'flight-sheets needs a subcommand: list or show'),
  );
}
