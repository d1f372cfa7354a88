import { CliError } from './errors.js';
import { isTerminal, paint } from './terminal.js';

/**
 * One place decides how data is printed; data always goes to stdout, notes to stderr.
 * - `--json`: the server's answer as JSON; `--json a,b` keeps only those fields (of each record in a list).
 * - stdout a terminal: aligned tables with a header and `label: value` lines, colour unless NO_COLOR.
 * - stdout a pipe or file: tab-separated rows without a header, `label:<TAB>value` lines, no colour.
 */

export type Cell = string | number | boolean | null | undefined;

/** `false` without --json; `null` fields for the whole answer; else the selected field names. */
export type JsonMode = false | { fields: readonly string[] | null };

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The --json flag as parsed: absent, bare (`''`), or a comma-separated field list. */
export function jsonMode(flag: string | undefined): JsonMode {
  if (flag === undefined) return false;
  const names = flag
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { fields: null };
  const bad = names.find((name) => !FIELD.test(name));
  if (bad !== undefined) {
    throw new CliError('usage', `--json takes field names separated by commas, not "${bad}"`);
  }
  return { fields: names };
}

/** Keeps `fields` of one record; a name the record does not have is a usage error listing those it has. */
export function pick(record: unknown, fields: readonly string[]): Record<string, unknown> {
  const source = (typeof record === 'object' && record !== null ? record : {}) as Record<
    string,
    unknown
  >;
  const unknown = fields.filter((name) => !(name in source));
  if (unknown.length > 0) {
    throw new CliError(
      'usage',
      `unknown JSON field${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; ` +
        `available: ${Object.keys(source).join(', ')}`,
    );
  }
  return Object.fromEntries(fields.map((name) => [name, source[name]]));
}

const write = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Prints `value` as JSON with --json (only the selected fields), otherwise the text `human` builds. */
export function emit(json: JsonMode, value: unknown, human: () => string): void {
  if (json === false) process.stdout.write(ensureNewline(human()));
  else write(json.fields === null ? value : pick(value, json.fields));
}

/**
 * A list: plain --json prints the whole answer (`page`); with fields, a JSON array of the records
 * cut down to those fields, as `gh … --json a,b` does.
 */
export function emitList(
  json: JsonMode,
  page: unknown,
  records: readonly unknown[],
  human: () => string,
): void {
  if (json === false || json.fields === null) emit(json, page, human);
  else {
    const { fields } = json;
    write(records.map((record) => pick(record, fields)));
  }
}

/** A status line for people (progress, "signed in as …"); stderr, so stdout stays parseable. */
export function note(message: string): void {
  process.stderr.write(ensureNewline(message));
}

const ensureNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

const show = (cell: Cell): string => (cell === null || cell === undefined ? '-' : String(cell));

/** One field of a tab-separated row: tabs and line breaks inside it would split it. */
const flat = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

/** For people: aligned columns under a bold header, or `empty` for no rows. For scripts: TSV, no header. */
export function table<T>(
  rows: readonly T[],
  columns: ReadonlyArray<readonly [header: string, cell: (row: T) => Cell]>,
  empty = '(none)',
): string {
  const cells = rows.map((row) => columns.map(([, cell]) => show(cell(row))));
  if (!isTerminal(process.stdout)) return cells.map((line) => line.map(flat).join('\t')).join('\n');
  if (rows.length === 0) return empty;
  const grid = [columns.map(([header]) => header), ...cells];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => (line[i] ?? '').length)));
  return grid
    .map((line, row) => {
      const text = line
        .map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ');
      return row === 0 ? paint(process.stdout, 'bold', text) : text;
    })
    .join('\n');
}

/** `label: value` lines, aligned on a terminal, `label:<TAB>value` otherwise. */
export function fields(pairs: ReadonlyArray<readonly [label: string, value: Cell]>): string {
  if (!isTerminal(process.stdout)) {
    return pairs.map(([label, value]) => `${label}:\t${flat(show(value))}`).join('\n');
  }
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${show(value)}`).join('\n');
}
