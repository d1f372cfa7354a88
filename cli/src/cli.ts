import yargs, { type Argv } from 'yargs';
import { authCommands } from './commands/auth.js';
import { flightSheetCommands } from './commands/flight-sheets.js';
import { ledgerCommands } from './commands/ledger.js';
import { projectCommands } from './commands/projects.js';
import { routerCommands } from './commands/router.js';
import { runCommands } from './commands/runs.js';
import { joinStdinDash } from './commands/secret.js';
import { serveCommand } from './commands/serve.js';
import type { GlobalArgs } from './context.js';
import { CliError } from './errors.js';

function parser(args: readonly string[]) {
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
    .option('json', { type: 'boolean', global: true, describe: 'print JSON for scripts' })
    .strict()
    .demandCommand(1, 'give a command (see runledger --help)')
    .help()
    .version(false)
    .wrap(null)
    // Errors are reported once, by runCli, with the exit code they call for.
    .fail((message, error) => {
      throw error ?? new CliError('usage', message);
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

/**
 * Runs one command line and returns the exit code: 0 on success, 1 when the server or the network
 * refused (the server's detail on stderr), 2 on bad usage or unreadable local input.
 */
export async function runCli(args: readonly string[]): Promise<number> {
  try {
    await parser(args).parseAsync();
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`runledger: ${error.message}\n`);
      if (error.code === 'usage') process.stderr.write('(see runledger --help)\n');
      return error.exitCode;
    }
    if (error instanceof Error && error.name === 'YError') {
      process.stderr.write(`runledger: ${error.message}\n(see runledger --help)\n`);
      return 2;
    }
    process.stderr.write(
      `runledger: unexpected error: ${(error as Error).stack ?? String(error)}\n`,
    );
    return 1;
  }
}
