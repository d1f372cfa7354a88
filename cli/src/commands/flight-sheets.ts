import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields, table } from '../output.js';
import { listCommand } from './list.js';

export function flightSheetCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('flight-sheets', 'the rulebooks runs are audited against', (sheets) =>
    listCommand(sheets, {
      command: 'list',
      describe: 'list the built-in sheets and your organization’s own',
      cursorFlag: '--after',
      key: 'flight_sheets',
      // Lanes are free text on the server (no enum to check against), so --lane is passed as given.
      options: (y) => y.option('lane', { type: 'string', describe: 'only this lane, e.g. agent' }),
      fetch: async (context, argv, after, limit) => {
        const page = await ok(
          mainApi(context).GET('/flight-sheets', {
            params: { query: { lane: argv.lane, limit, after } },
          }),
        );
        return { rows: page.flight_sheets, next: page.next, page };
      },
      columns: [
        ['SLUG', (s) => s.slug],
        ['VERSION', (s) => s.version],
        ['LANE', (s) => s.lane],
        ['RULES', (s) => s.audit_checks.length],
        ['NAME', (s) => s.name],
      ],
      examples: [['$0 flight-sheets list --lane agent', 'the sheets of the agent lane']],
    })
      .command(
        'show <sheet>',
        'show one sheet (an id, or a slug for its newest version)',
        (y) =>
          y
            .positional('sheet', { type: 'string', demandOption: true })
            .example('$0 flight-sheets show agent-task-report', 'the newest version of a slug'),
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
