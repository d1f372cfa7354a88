import type { Argv } from 'yargs';
import type { GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';

/**
 * The server is its own package (@runledger/server, bin `runledger-server`): installing the CLI does
 * not install Express, SQLite and pdfkit. `runledger serve` stays only to say where it went.
 */
export const SERVE_MOVED =
  'the server is not part of the CLI: install @runledger/server and run `runledger-server` ' +
  '(in a checkout: `npm start`); it reads the same environment (PORT, ROUTER_PORT, DATA_DIR, …)';

export function serveCommand(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command(
    'serve',
    false, // hidden from --help: a pointer to runledger-server, not a command
    (y) => y.strict(false),
    () => {
      throw new CliError('usage', SERVE_MOVED);
    },
  );
}
