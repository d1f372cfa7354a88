import yargs, { type Argv } from 'yargs';

/** Wording of usage errors: which command was being run, and what yargs' terse messages mean. */

/** The command words of the command being run, for "(see runledger runs list --help)". */
export interface Where {
  path: string[];
}

/** `$0 runs show <run>` (yargs' usage line of the current command) → ['runs', 'show']. */
export const wordsOf = (usage: string): string[] =>
  usage.split(/\s+/).filter((word) => word !== '$0' && word !== '' && !/^[<[]/.test(word));

export interface UsageView {
  getUsage(): Array<[string, string]>;
}

/** Unknown-command messages from yargs say only "Did you mean x?": name the word that was not found. */
export function usageMessage(
  message: string,
  path: readonly string[],
  args: readonly string[],
): string {
  const invalid = /Argument: (\S+), Given: (.*), Choices: (.*)/.exec(message);
  if (invalid) {
    const [, name = '', given, choices] = invalid;
    const isFlag = args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    return `${isFlag ? `--${name}` : name}: ${given} is not one of the allowed values: ${choices?.replace(/"/g, '')}`;
  }
  if (!message.startsWith('Did you mean')) return message;
  const words = args.filter((arg) => !arg.startsWith('-'));
  const unknown = words[path.length];
  const suggestion = /Did you mean (\S+)\?/.exec(message)?.[1];
  return `unknown command "${unknown ?? ''}"${path.length ? ` for "runledger ${path.join(' ')}"` : ''}; did you mean "${suggestion ?? ''}"?`;
}

interface CommandTree {
  getInternalMethods(): {
    getCommandInstance(): {
      getCommandHandlers(): Record<string, { builder?: unknown } | undefined>;
    };
  };
}

/**
 * How many of `words` name nested commands, walking yargs' own command tree (each command's builder
 * run on a fresh instance, as yargs' completion does), so `help` can refuse a command that does not exist.
 */
export function knownDepth(root: Argv, words: readonly string[]): number {
  let level = root as unknown as CommandTree;
  for (const [depth, word] of words.entries()) {
    const handler = level.getInternalMethods().getCommandInstance().getCommandHandlers()[word];
    if (handler === undefined) return depth;
    if (typeof handler.builder !== 'function') return depth + 1;
    const next = yargs([]);
    (handler.builder as (y: Argv) => unknown)(next);
    level = next as unknown as CommandTree;
  }
  return words.length;
}

/** The line under a usage error: the help of the command that was being run. */
export const helpHint = (path: readonly string[]) =>
  `(see runledger ${path.length ? `${path.join(' ')} ` : ''}--help)\n`;
