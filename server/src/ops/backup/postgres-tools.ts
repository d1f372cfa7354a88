import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** pg_dump and pg_restore take a libpq URI; its `options` (a search_path, say) are passed on. */
async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(name, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`${name} failed${stderr ? `: ${stderr}` : ''}`, { cause: error });
  }
}

/** pg_dump -Fc of the database as of `snapshotId` (a snapshot another connection exported). */
export function pgDump(url: string, snapshotId: string, file: string): Promise<void> {
  return tool('pg_dump', ['--format=custom', `--snapshot=${snapshotId}`, `--file=${file}`, url]);
}

/** pg_restore into an empty database, stopping at the first error. */
export function pgRestore(url: string, file: string): Promise<void> {
  return tool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    `--dbname=${url}`,
    file,
  ]);
}
