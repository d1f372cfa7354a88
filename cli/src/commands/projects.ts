import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields, morePages, table } from '../output.js';

export function projectCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('projects', 'list and create projects', (projects) =>
    projects
      .command(
        'list',
        'list the projects of your organization',
        (y) =>
          y.option('limit', { type: 'number', describe: 'page size (1-200)' }).option('after', {
            type: 'string',
            describe: 'the `next` cursor of the previous page',
          }),
        async (argv) => {
          const context = await contextOf(argv);
          const page = await ok(
            mainApi(context).GET('/projects', {
              params: { query: { limit: argv.limit, after: argv.after } },
            }),
          );
          emit(
            context.json,
            page,
            () =>
              table(page.projects, [
                ['ID', (p) => p.id],
                ['NAME', (p) => p.name],
                ['CREATED', (p) => p.created_at],
              ]) + morePages(page.next, '--after'),
          );
        },
      )
      .command(
        'create <name>',
        'create a project',
        (y) => y.positional('name', { type: 'string', demandOption: true }),
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
