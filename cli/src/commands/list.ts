import type { Argv } from 'yargs';
import { contextOf, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { emitList, note, table, type Cell } from '../output.js';
import { isTerminal } from '../terminal.js';

type Cursor = string | number | null;

/** What one list command needs: how to fetch a page from a cursor, and how to show its records. */
export interface ListSpec<A, Row> {
  command: string;
  describe: string;
  /** The flag that takes the `next` cursor, e.g. `--after` or `--after-seq`. */
  cursorFlag: string;
  /** Filters and anything else the command takes besides --limit, the cursor flag and --all. */
  options?: (y: Argv<GlobalArgs>) => Argv<A>;
  fetch: (
    context: Context,
    argv: A,
    cursor: string | undefined,
    limit: number | undefined,
  ) => Promise<{ rows: readonly Row[]; next: Cursor; page: object }>;
  /** The key that holds the records in the server's answer, for `--all --json`. */
  key: string;
  columns: ReadonlyArray<readonly [header: string, cell: (row: Row) => Cell]>;
  examples?: ReadonlyArray<readonly [command: string, what: string]>;
}

/** Follows `next` until the server says there is no more; a repeated cursor would loop, so it stops. */
async function everyPage<A, Row>(
  spec: ListSpec<A, Row>,
  context: Context,
  argv: A,
  first: string | undefined,
  limit: number | undefined,
) {
  const rows: Row[] = [];
  const seen = new Set<string>();
  let cursor = first;
  for (;;) {
    const page = await spec.fetch(context, argv, cursor, limit);
    rows.push(...page.rows);
    if (page.next === null) return { rows, page: { ...page.page, [spec.key]: rows, next: null } };
    cursor = String(page.next);
    if (seen.has(cursor)) {
      throw new CliError('request_failed', `the server repeated the cursor ${cursor}; stopped`);
    }
    seen.add(cursor);
  }
}

/** Registers a paged list with --limit, its cursor flag, and --all/--paginate to follow every cursor. */
export function listCommand<A, Row>(cli: Argv<GlobalArgs>, spec: ListSpec<A, Row>) {
  const cursorKey = spec.cursorFlag.replace(/^--/, '');
  return cli.command(
    spec.command,
    spec.describe,
    (y) => {
      const withOptions = (spec.options ? spec.options(y) : y) as Argv<GlobalArgs>;
      const built = withOptions
        .option('limit', { type: 'number', describe: 'records per page (the server caps it)' })
        .option(cursorKey, {
          type: 'string',
          describe: 'start after this cursor (a page’s `next`)',
        })
        .option('all', {
          alias: 'paginate',
          type: 'boolean',
          describe: 'follow the cursors and print every page',
        });
      return (spec.examples ?? []).reduce((y2, [cmd, what]) => y2.example(cmd, what), built);
    },
    async (argv) => {
      const context = await contextOf(argv as GlobalArgs);
      const options = argv as unknown as A & Record<string, unknown>;
      const cursor = options[cursorKey] as string | undefined;
      const limit = options.limit as number | undefined;
      const result =
        options.all === true
          ? { ...(await everyPage(spec, context, options, cursor, limit)), next: null }
          : await spec.fetch(context, options, cursor, limit);
      emitList(context.json, result.page, result.rows, () => table(result.rows, spec.columns));
      if (context.json === false && result.next !== null) {
        // The hint is for people: on a terminal under the table, else on stderr so the TSV stays rows only.
        const hint = `(more: ${spec.cursorFlag} ${result.next}, or --all)`;
        if (isTerminal(process.stdout)) process.stdout.write(`${hint}\n`);
        else note(hint);
      }
    },
  );
}
