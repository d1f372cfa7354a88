import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { VerifyError } from '../errors.js';

/** Lines of a text file (without their newlines), streamed; an unreadable file throws `unreadable_input`. */
export async function* readLines(path: string): AsyncGenerator<string> {
  let handle;
  try {
    handle = await open(path, 'r');
    if (!(await handle.stat()).isFile()) throw new Error('not a regular file');
  } catch (error) {
    await handle?.close();
    throw new VerifyError('unreadable_input', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // The stream owns the handle from here on and closes it when it ends or is destroyed.
  const input = handle.createReadStream({ encoding: 'utf8' });
  const reader = createInterface({ input, crlfDelay: Infinity });
  try {
    yield* reader;
  } catch (error) {
    throw new VerifyError('unreadable_input', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    reader.close();
    input.destroy();
  }
}

/** `*.receipts.jsonl` files of a directory, in name (so date) order. */
export async function listReceiptFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return names
    .filter((name) => name.endsWith('.receipts.jsonl'))
    .sort()
    .map((name) => join(dir, name));
}

/** Expands directories into their receipt files; files stay as given. Missing paths throw `unreadable_input`. */
export async function expandReceiptPaths(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new VerifyError(
        'unreadable_input',
        `cannot read ${path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    if (info.isDirectory()) files.push(...(await listReceiptFiles(path)));
    else files.push(path);
  }
  if (files.length === 0) {
    throw new VerifyError('unreadable_input', `no *.receipts.jsonl files in ${paths.join(', ')}`);
  }
  return files;
}
