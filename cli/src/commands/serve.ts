import { once } from 'node:events';
import type { Argv } from 'yargs';
import type { GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { note } from '../output.js';

export function serveCommand(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command(
    'serve',
    'serve the main API and the router API (the same environment as `npm start`)',
    (y) =>
      y
        .option('port', { type: 'number', describe: 'main API port (overrides PORT)' })
        .option('router-port', {
          type: 'number',
          describe: 'router API port (overrides ROUTER_PORT)',
        })
        .option('data-dir', { type: 'string', describe: 'data directory (overrides DATA_DIR)' }),
    async (argv) => {
      const env = { ...process.env };
      if (argv.port !== undefined) env.PORT = String(argv.port);
      if (argv['router-port'] !== undefined) env.ROUTER_PORT = String(argv['router-port']);
      if (argv['data-dir'] !== undefined) env.DATA_DIR = argv['data-dir'];
      // Loaded here, not at the top: every other command starts without Express, SQLite and pdfkit.
      const { ConfigError, loadConfig, startServer } = await import('@runledger/server');
      let config;
      try {
        config = loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) throw new CliError('usage', error.message);
        throw error;
      }
      const server = await startServer(config);
      note(`runledger listening on ${server.url} (router API on ${server.routerUrl})`);
      note(`data in ${config.dataDir}; Ctrl-C stops`);
      // Whichever signal comes first; the server finishes in-flight requests before closing storage.
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      note('shutting down');
      await server.close();
    },
  );
}
