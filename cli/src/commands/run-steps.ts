import type { Argv } from 'yargs';
import { contextOf, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { mainApi, ok, present } from '../http/client.js';
import { emit, fields } from '../output.js';
import { DECISIONS } from '../enums.js';
import { readLocal } from './args.js';
import { checksTable, receiptFields, verdictLine } from './render.js';

const runArg = (y: Argv<GlobalArgs>) =>
  y.positional('run', { type: 'string', demandOption: true, describe: 'run id' });

/** A check id (chk_…) as is; otherwise the rule key of one of the run's checks. */
async function checkIdOf(context: Context, runId: string, check: string): Promise<string> {
  if (check.startsWith('chk_')) return check;
  const { checks } = await ok(
    mainApi(context).GET('/runs/{run_id}/checks', { params: { path: { run_id: runId } } }),
  );
  const found = checks.find((c) => c.key === check);
  if (!found) throw new CliError('usage', `run ${runId} has no check with id or key "${check}"`);
  return found.id;
}

function submission(text: string, file: string): Record<string, unknown> | unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError('local_input', `${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new CliError('local_input', `${file} must hold a JSON object or array`);
  }
  return parsed as Record<string, unknown> | unknown[];
}

/** The steps of a run, from its submission to its receipt. */
export function runStepCommands(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return decisionCommands(auditCommands(runs));
}

/** submit, audit and grade. */
function auditCommands(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return runs
    .command(
      'submit <run> <file>',
      'submit the work product (a JSON file, or - for stdin); replaces an earlier submission',
      (y) => runArg(y).positional('file', { type: 'string', demandOption: true }),
      async (argv) => {
        const context = await contextOf(argv);
        const body = submission(await readLocal(argv.file), argv.file);
        const stored = present(
          await ok(
            mainApi(context).POST('/runs/{run_id}/submission', {
              params: { path: { run_id: argv.run } },
              body,
            }),
          ),
          'a submission',
        );
        emit(context.json, stored, () =>
          fields([
            ['run', stored.run_id],
            ['sha256', stored.sha256],
            ['submitted', stored.submitted_at],
          ]),
        );
      },
    )
    .command(
      'audit <run>',
      'run the automatic checks; checklist rules stay open for grading',
      runArg,
      async (argv) => {
        const context = await contextOf(argv);
        const audit = await ok(
          mainApi(context).POST('/runs/{run_id}/audit', { params: { path: { run_id: argv.run } } }),
        );
        emit(context.json, audit, () =>
          [
            checksTable(audit.checks),
            '',
            audit.needs_grading
              ? 'needs grading: `runledger runs grade RUN CHECK --pass|--flag`, then `runledger runs findings RUN`'
              : verdictLine(audit.verdict ?? null),
          ].join('\n'),
        );
      },
    )
    .command(
      'grade <run> <check>',
      'grade an open checklist check (by id or rule key)',
      (y) =>
        runArg(y)
          .positional('check', { type: 'string', demandOption: true })
          .option('pass', { type: 'boolean' })
          .option('flag', { type: 'boolean' })
          .conflicts('pass', 'flag')
          .check((argv) => {
            if (!argv.pass && !argv.flag) throw new Error('give --pass or --flag');
            return true;
          }),
      async (argv) => {
        const context = await contextOf(argv);
        const checkId = await checkIdOf(context, argv.run, argv.check);
        const graded = await ok(
          mainApi(context).PATCH('/runs/{run_id}/checks/{check_id}', {
            params: { path: { run_id: argv.run, check_id: checkId } },
            body: { status: argv.pass ? 'pass' : 'flag' },
          }),
        );
        emit(context.json, graded, () => `${graded.key} (${graded.id}): ${graded.status}`);
      },
    );
}

/** findings, approve and receipt. */
function decisionCommands(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return runs
    .command(
      'findings <run>',
      'finalize the verdict once no check is open',
      runArg,
      async (argv) => {
        const context = await contextOf(argv);
        const verdict = await ok(
          mainApi(context).POST('/runs/{run_id}/findings', {
            params: { path: { run_id: argv.run } },
          }),
        );
        emit(context.json, verdict, () => verdictLine(verdict));
      },
    )
    .command(
      'approve <run>',
      'decide a finalized run: approved, rejected or escalated',
      (y) =>
        runArg(y)
          .option('decision', {
            choices: DECISIONS,
            demandOption: true,
          })
          .option('note', { type: 'string' }),
      async (argv) => {
        const context = await contextOf(argv);
        const approval = present(
          await ok(
            mainApi(context).POST('/runs/{run_id}/approve', {
              params: { path: { run_id: argv.run } },
              body: { decision: argv.decision, ...(argv.note ? { note: argv.note } : {}) },
            }),
          ),
          'an approval',
        );
        emit(context.json, approval, () =>
          fields([
            ['decision', approval.decision],
            ['by', approval.decided_by],
            ['at', approval.decided_at],
            ['note', approval.note],
          ]),
        );
      },
    )
    .command(
      'receipt <run>',
      'mint the receipt of an approved run (again: the same receipt)',
      runArg,
      async (argv) => {
        const context = await contextOf(argv);
        const receipt = present(
          await ok(
            mainApi(context).POST('/runs/{run_id}/receipt', {
              params: { path: { run_id: argv.run } },
            }),
          ),
          'a receipt',
        );
        emit(context.json, receipt, () => receiptFields(receipt));
      },
    );
}
