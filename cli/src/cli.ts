import { createRequire } from 'node:module';
import yargs, { type Argv } from 'yargs';
import { auditCommands } from './commands/audit.js';
import { webhookCommands } from './commands/webhooks.js';
import { authCommands } from './commands/auth.js';
import { flightSheetCommands } from './commands/flight-sheets.js';
import { ledgerCommands } from './commands/ledger.js';
import { orgCommands } from './commands/org.js';
import { projectCommands } from './commands/projects.js';
import { routerCommands } from './commands/router.js';
import { runCommands } from './commands/runs.js';
import { joinStdinDash } from './commands/secret.js';
import { serveCommand } from './commands/serve.js';
import { completionScript, SHELLS } from './completion.js';
import type { GlobalArgs } from './context.js';
import { CliError, EXIT } from './errors.js';
import { paint } from './terminal.js';
import {
  helpHint,
  knownDepth,
  usageMessage,
  wordsOf,
  type UsageView,
  type Where,
} from './usage.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

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
    orgCommands,
    projectCommands,
    flightSheetCommands,
    runCommands,
    ledgerCommands,
    auditCommands,
    webhookCommands,
    routerCommands,
  ].reduce((cli, add) => add(cli), root);
  return withCommands;
}

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
