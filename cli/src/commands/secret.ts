import { createInterface } from 'node:readline';
import { CliError } from '../errors.js';
import { note } from '../output.js';

/** The first line of stdin, trimmed; `missing` is the error when stdin ends before one. */
export async function firstLineOfStdin(missing: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  throw new CliError('local_input', missing);
}

export interface SecretSource {
  /** The flag's value: undefined when absent, '' when given bare, '-' for stdin. */
  flag: string | undefined;
  flagName: string;
  envName: string;
  env: Record<string, string | undefined>;
}

/**
 * A secret from the environment or stdin, which stay out of `ps` and shell history. A literal flag
 * value still works, for scripts written before, but says once on stderr that it is visible.
 * A bare flag takes the variable when it is set, else stdin; `-` always reads stdin.
 */
export async function readSecret(source: SecretSource): Promise<string | undefined> {
  const { flag, flagName, envName, env } = source;
  const fromEnv = env[envName] || undefined;
  if (flag === undefined) return fromEnv;
  if (flag === '' && fromEnv) return fromEnv;
  if (flag === '' || flag === '-') {
    if (process.stdin.isTTY) note(`${flagName}: paste the value and press Enter`);
    const line = await firstLineOfStdin(`${flagName}: nothing on stdin`);
    if (line === '') throw new CliError('local_input', `${flagName}: the line on stdin is empty`);
    return line;
  }
  note(
    `runledger: warning: ${flagName} with a value is visible in the process list and shell history; set ${envName} or pass ${flagName} - and the value on stdin`,
  );
  return flag;
}

/** The flags whose value may be `-` for stdin. */
export const SECRET_FLAGS = ['--api-key', '--registration-key'] as const;

/**
 * yargs never takes a lone `-` as an option's value, so `--api-key -` becomes `--api-key=-` before
 * parsing.
 */
export function joinStdinDash(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if ((SECRET_FLAGS as readonly string[]).includes(arg) && args[i + 1] === '-') {
      joined.push(`${arg}=-`);
      i += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}
