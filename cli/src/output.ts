/** One place decides between JSON for scripts and text for people; data always goes to stdout. */

export type Cell = string | number | boolean | null | undefined;

/** Prints `value` as JSON with --json, otherwise the text `human` builds. */
export function emit(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : ensureNewline(human()));
}

/** A status line for people (progress, "signed in as …"); stderr, so stdout stays parseable. */
export function note(message: string): void {
  process.stderr.write(ensureNewline(message));
}

const ensureNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

const show = (cell: Cell): string => (cell === null || cell === undefined ? '-' : String(cell));

/** A left-aligned table with a header row; an empty list says so instead of printing a bare header. */
export function table<T>(
  rows: readonly T[],
  columns: ReadonlyArray<readonly [header: string, cell: (row: T) => Cell]>,
  empty = '(none)',
): string {
  if (rows.length === 0) return empty;
  const grid = [
    columns.map(([header]) => header),
    ...rows.map((row) => columns.map(([, cell]) => show(cell(row)))),
  ];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => (line[i] ?? '').length)));
  return grid
    .map((line) =>
      line
        .map((text, i) => (i === line.length - 1 ? text : text.padEnd(widths[i] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

/** `label: value` lines with the values aligned. */
export function fields(pairs: ReadonlyArray<readonly [label: string, value: Cell]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${show(value)}`).join('\n');
}

/** The hint printed under a paged list when there is a next page. */
export const morePages = (next: string | number | null, flag: string): string =>
  next === null ? '' : `\n(more: ${flag} ${next})`;
