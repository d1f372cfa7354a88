import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields } from '../output.js';
import { listCommand } from './list.js';

export function projectCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('projects', 'list and create projects', (projects) =>
    listCommand(projects, {
      command: 'list',
      describe: 'list the projects of your organization',
      cursorFlag: '--after',
      key: 'projects',
      fetch: async (context, _argv, after, limit) => {
        const page = await ok(
          mainApi(context).GET('/projects', { params: { query: { limit, after } } }),
        );
        return { rows: page.projects, next: page.next, page };
      },
      columns: [
        ['ID', (p) => p.id],
        ['NAME', (p) => p.name],
        ['CREATED', (p) => p.created_at],
      ],
      examples: [
        ['$0 projects list', 'the first page, as a table on a terminal'],
        ['$0 projects list --all --json id,name', 'every project, only the id and name fields'],
      ],
    })
      .command(
        'create <name>',
        'create a project',
        (y) =>
          y
            .positional('name', { type: 'string', demandOption: true })
            .example('$0 projects create Reports', 'a project named Reports')
            .example('$0 projects create Reports --json id', 'print only {"id": …}'),
        async (argv) => {
          const context = await contextOf(argv);
          const project = await ok(
            mainApi(context).POST('/projects', { body: { name: argv.name } }),
          );
          emit(context.json, project, () =>
            fields([
              ['id', project.id],
              ['name', project.name],
              ['created', project.created_at],
            ]),
          );
        },
      )
      .demandCommand(1, 'projects needs a subcommand: list or create'),
  );
}
