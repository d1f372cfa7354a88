import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { attestationCommand } from './attestation.js';
import { RUN_STATES } from '../enums.js';
import { mainApi, ok } from '../http/client.js';
import { emit } from '../output.js';
import { listCommand } from './list.js';
import { evidenceCommands } from './evidence.js';
import { checksTable, evidenceTable, receiptFields, runLine, verdictLine } from './render.js';
import { runStepCommands } from './run-steps.js';

function runQueries(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return listCommand(runs, {
    command: 'list',
    describe: 'list runs in creation order',
    cursorFlag: '--after',
    key: 'runs',
    options: (y) =>
      y
        .option('project', { type: 'string', describe: 'only this project' })
        .option('state', { choices: RUN_STATES, describe: 'only runs in this state' }),
    fetch: async (context, argv, after, limit) => {
      const page = await ok(
        mainApi(context).GET('/runs', {
          params: { query: { project_id: argv.project, state: argv.state, limit, after } },
        }),
      );
      return { rows: page.runs, next: page.next, page };
    },
    columns: [
      ['ID', (r) => r.id],
      ['STATE', (r) => r.state],
      ['SHEET', (r) => r.flight_sheet_id],
      ['TITLE', (r) => r.title],
    ],
    examples: [
      ['$0 runs list --state approved', 'approved runs not yet receipted'],
      ['$0 runs list --all --json id,state', 'every run, as [{"id", "state"}, …]'],
    ],
  })
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
          .option('model', { type: 'string', describe: 'agent profile model', implies: 'agent' })
          .example(
            '$0 runs create --project prj_… --sheet agent-task-report --title nightly',
            'a run of the newest agent-task-report',
          ),
      (argv) => createRun(argv),
    )
    .command(
      'show <run>',
      'everything about one run: evidence, checks, verdict, approval, receipt',
      (y) =>
        y
          .positional('run', { type: 'string', demandOption: true })
          .example('$0 runs show run_… --json run,verdict', 'only the run and its verdict'),
      (argv) => showRun(argv),
    );
}

export function runCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('runs', 'runs: create, evidence, submit, audit, grade, decide, mint', (runs) =>
    runStepCommands(evidenceCommands(attestationCommand(runQueries(runs)))).demandCommand(
      1,
      'runs needs a subcommand',
    ),
  );
}

/** `runledger runs create`: a run of a flight sheet, with its agent profile when given. */
async function createRun(
  argv: Parameters<typeof contextOf>[0] & {
    project: string;
    sheet: string;
    title: string;
    agent?: string | undefined;
    model?: string | undefined;
  },
): Promise<void> {
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
}

/** `runledger runs show`: the run with its evidence, checks, verdict, approval and receipt. */
async function showRun(argv: Parameters<typeof contextOf>[0] & { run: string }): Promise<void> {
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
}
