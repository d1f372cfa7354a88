import type { Argv } from 'yargs';
import type { GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { listCommand } from './list.js';

const id = <T>(y: Argv<T>) => y.positional('id', { type: 'string', demandOption: true });

/** `webhooks deliveries ID`: the delivery log of an endpoint, paged like every list. */
export function deliveriesCommand(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return listCommand(cli, {
    command: 'deliveries <id>',
    describe: 'the delivery log of an endpoint',
    cursorFlag: '--after',
    key: 'deliveries',
    options: (y) => id(y),
    fetch: async (context, argv, after, limit) => {
      const page = await ok(
        mainApi(context).GET('/org/webhooks/{webhook_id}/deliveries', {
          params: { path: { webhook_id: argv.id }, query: { limit, after } },
        }),
      );
      return { rows: page.deliveries, next: page.next, page };
    },
    columns: [
      ['EVENT', (d) => d.event_id],
      ['TYPE', (d) => d.event_type],
      ['STATE', (d) => d.state],
      ['ATTEMPTS', (d) => d.attempts],
      ['STATUS', (d) => d.last_status ?? '-'],
      ['MS', (d) => d.last_latency_ms ?? '-'],
      ['ERROR', (d) => d.last_error ?? '-'],
      ['NEXT', (d) => d.next_attempt_at ?? '-'],
    ],
    examples: [['$0 webhooks deliveries whk_… --all --json', 'the whole log for a script']],
  });
}
