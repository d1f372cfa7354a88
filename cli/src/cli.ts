import { createRequire } from 'node:module';
import yargs, { type Argv } from 'yargs';
import { authCommands } from './commands/auth.js';
import { flightSheetCommands } from './commands/flight-sheets.js';
import { ledgerCommands } from './commands/ledger.js';
import { projectCommands } from './commands/projects.js';
import { routerCommands } from './commands/router.js';
import { runCommands } from './commands/runs.js';
import { joinStdinDash } from './commands/secret.js';
import { serveCommand } from './commands/serve.js';
import { completionScript, SHELLS } from './completion.js';
import type { GlobalArgs } from './context.js';
import { CliError, EXIT } from './errors.js';
import { paint } from './terminal.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The command words of the command being run, for "(see runledger runs list --help)". */
interface Where {
  path: string[];
}

/** `$0 runs show <run>` (yargs' usage line of the current command) → ['runs', 'show']. */
const wordsOf = (usage: string): string[] =>
  usage.split(/\s+/).filter((word) => word !== '$0' && word !== '' && !/^[<[]/.test(word));

interface UsageView {
  getUsage(): Array<[string, string]>;
}

/** Unknown-command messages from yargs say only "Did you mean x?": name the word that was not found. */
function usageMessage(message: string, path: readonly string[], args: readonly string[]): string {
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
function knownDepth(root: Argv, words: readonly string[]): number {
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

function parser(args: readonly string[], where: Where) {
  const root = yargs(joinStdinDash(args))
    .scriptName('runledger')
    .usage('$0 <command> [options]')
    .option('base-url', {
      type: 'string',
      global: true,
      describe:
        'main API address (env RUNLEDGER_URL; default: where you logged in, else http://localhost:8080)',
    })
    .option('router-url', {
      type: 'string',
      global: true,
      describe: 'router API address (env RUNLEDGER_ROUTER_URL; default http://127.0.0.1:8081)',
    })
    .option('json', {
      type: 'string',
      global: true,
      describe: 'print JSON for scripts; --json a,b keeps only those fields (see docs/cli.md)',
    })
    .middleware((argv) => {
      where.path = argv._.map(String);
    }, true)
    .command(
      'help [command..]',
      'help for a command, e.g. runledger help runs list',
      (y) => y.positional('command', { type: 'string', array: true }),
      async (argv) => {
        const command = (argv.command ?? []) as string[];
        const known = knownDepth(parser([], where), command);
        if (known < command.length) {
          where.path = command.slice(0, known);
          const prefix = ['runledger', ...where.path].join(' ');
          throw new CliError('usage', `"${prefix}" has no command "${command[known]}"`);
        }
        await parser([...command, '--help'], where).parseAsync();
      },
    )
    .command(
      'completion <shell>',
      'print a shell completion script (install lines in docs/cli.md)',
      (y) =>
        y
          .positional('shell', { choices: SHELLS, demandOption: true })
          .example('eval "$($0 completion bash)"', 'completion in this bash session'),
      (argv) => {
        process.stdout.write(completionScript(argv.shell));
      },
    )
    .strict()
    .recommendCommands()
    .demandCommand(1, 'give a command')
    .help('help')
    .alias('help', 'h')
    .version('version', 'show the version', `runledger ${version}`)
    .wrap(null)
    .epilog('Exit codes: 0 ok, 1 refused or failed, 2 bad usage, 4 sign-in needed (docs/cli.md).')
    // Errors are reported once, by runCli, with the exit code they call for.
    .fail((message, error, usage) => {
      if (error) throw error;
      const path = wordsOf((usage as unknown as UsageView).getUsage()[0]?.[0] ?? '');
      where.path = path;
      throw new CliError('usage', usageMessage(message, path, args));
    }) as Argv<GlobalArgs>;
  const withCommands = [
    serveCommand,
    authCommands,
    projectCommands,
    flightSheetCommands,
    runCommands,
    ledgerCommands,
    routerCommands,
  ].reduce((cli, add) => add(cli), root);
  return withCommands;
}

const helpHint = (path: readonly string[]) =>
  `(see runledger ${path.length ? `${path.join(' ')} ` : ''}--help)\n`;

/**
 * Runs one command line and returns the exit code: 0 on success, 1 when the server or the network
 * refused (the server's detail on stderr), 2 on bad usage or unreadable local input, 4 when sign-in
 * is needed. Usage errors point to the help of the command that was being run.
 */
export async function runCli(args: readonly string[]): Promise<number> {
  const where: Where = { path: [] };
  const prefix = paint(process.stderr, 'red', 'runledger:');
  try {
    await parser(args, where).parseAsync();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`${prefix} ${error.message}\n`);
      if (error.code === 'usage') process.stderr.write(helpHint(where.path));
      return error.exitCode;
    }
    if (error instanceof Error && error.name === 'YError') {
      process.stderr.write(`${prefix} ${error.message}\n${helpHint(where.path)}`);
      return EXIT.usage;
    }
    process.stderr.write(
      `${prefix} unexpected error: ${(error as Error).stack ?? String(error)}\n`,
    );
    return EXIT.failed;
  }
}
