import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import type { components } from '../generated/main-api.js';
import { mainApi, ok } from '../http/client.js';
import { emit, morePages, table } from '../output.js';
import { evidenceCommands } from './evidence.js';
import { checksTable, evidenceTable, receiptFields, runLine, verdictLine } from './render.js';
import { runStepCommands } from './run-steps.js';

type RunState = components['schemas']['RunState'];

function runQueries(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return runs
    .command(
      'create',
      'start a run of a flight sheet in a project',
      (y) =>
        y
          .option('project', { type: 'string', demandOption: true, describe: 'project id' })
          .option('sheet', {
            type: 'string',
            demandOption: true,
            describe: 'flight sheet id or slug (a slug pins its newest version)',
          })
          .option('title', { type: 'string', demandOption: true })
          .option('agent', { type: 'string', describe: 'agent profile name' })
          .option('model', { type: 'string', describe: 'agent profile model', implies: 'agent' }),
      async (argv) => {
        const context = await contextOf(argv);
        const run = await ok(
          mainApi(context).POST('/runs', {
            body: {
              project_id: argv.project,
              flight_sheet_id: argv.sheet,
              title: argv.title,
              ...(argv.agent
                ? {
                    agent_profile: {
                      name: argv.agent,
                      ...(argv.model ? { model: argv.model } : {}),
                    },
                  }
                : {}),
            },
          }),
        );
        emit(context.json, run, () => runLine(run));
      },
    )
    .command(
      'list',
      'list runs in creation order',
      (y) =>
        y
          .option('project', { type: 'string', describe: 'only this project' })
          .option('state', { type: 'string', describe: 'only runs in this state' })
          .option('limit', { type: 'number' })
          .option('after', { type: 'string' }),
      async (argv) => {
        const context = await contextOf(argv);
        const page = await ok(
          mainApi(context).GET('/runs', {
            params: {
              query: {
                project_id: argv.project,
                state: argv.state as RunState | undefined,
                limit: argv.limit,
                after: argv.after,
              },
            },
          }),
        );
        emit(
          context.json,
          page,
          () =>
            table(page.runs, [
              ['ID', (r) => r.id],
              ['STATE', (r) => r.state],
              ['SHEET', (r) => r.flight_sheet_id],
              ['TITLE', (r) => r.title],
            ]) + morePages(page.next, '--after'),
        );
      },
    )
    .command(
      'show <run>',
      'everything about one run: evidence, checks, verdict, approval, receipt',
      (y) => y.positional('run', { type: 'string', demandOption: true }),
      async (argv) => {
        const context = await contextOf(argv);
        const all = await ok(
          mainApi(context).GET('/runs/{run_id}', { params: { path: { run_id: argv.run } } }),
        );
        emit(context.json, all, () =>
          [
            runLine(all.run),
            '',
            'evidence:',
            evidenceTable(all.evidence),
            '',
            `submission: ${all.submission ? `sha256 ${all.submission.sha256}` : 'none'}`,
            '',
            'checks:',
            checksTable(all.checks),
            '',
            verdictLine(all.verdict),
            all.approval
              ? `decision: ${all.approval.decision} by ${all.approval.decided_by}${all.approval.note ? ` (${all.approval.note})` : ''}`
              : 'decision: none',
            ...(all.receipt ? ['', receiptFields(all.receipt)] : []),
          ].join('\n'),
        );
      },
    );
}

export function runCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('runs', 'runs: create, evidence, submit, audit, grade, decide, mint', (runs) =>
    runStepCommands(evidenceCommands(runQueries(runs))).demandCommand(
      1,
      'runs needs a subcommand (see runledger runs --help)',
    ),
  );
}
