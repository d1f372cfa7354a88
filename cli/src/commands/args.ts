import { readFile } from 'node:fs/promises';
import { CliError } from '../errors.js';

/** A required string flag or positional, checked after yargs so the message names it. */
export function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new CliError('usage', `${name} is required`);
  return value;
}

/** A JSON value given inline on the command line (`--input '{"a":1}'`). */
export function jsonArg(value: string | undefined, name: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new CliError('usage', `${name} is not valid JSON`);
  }
}

/** A JSON object given inline (`--input '{"prompt":"hi"}'`). */
export function jsonObjectArg(
  value: string | undefined,
  name: string,
): Record<string, unknown> | undefined {
  const parsed = jsonArg(value, name);
  if (parsed === undefined) return undefined;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('usage', `${name} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads a local file (or stdin for "-") as UTF-8. */
export async function readLocal(path: string): Promise<string> {
  try {
    if (path === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError('local_input', `cannot read ${path}: ${(error as Error).message}`);
  }
}
