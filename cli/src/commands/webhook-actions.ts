import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { WEBHOOK_EVENT_TYPES } from '../enums.js';
import { mainApi, ok } from '../http/client.js';
import { emit } from '../output.js';
import { deliveriesCommand } from './webhook-deliveries.js';
import { showEndpoint } from './webhook-view.js';

const id = <T>(y: Argv<T>) => y.positional('id', { type: 'string', demandOption: true });
const path = (webhookId: string) => ({ params: { path: { webhook_id: webhookId } } });

interface UpdateArgs extends GlobalArgs {
  id: string;
  url?: string;
  event?: string[];
  enabled?: boolean;
}

/** `webhooks update ID`: sends only the fields given. */
async function updateEndpoint(argv: UpdateArgs): Promise<void> {
  const context = await contextOf(argv);
  const body = {
    ...(argv.url === undefined ? {} : { url: argv.url }),
    ...(argv.event === undefined
      ? {}
      : { events: argv.event as (typeof WEBHOOK_EVENT_TYPES)[number][] }),
    ...(argv.enabled === undefined ? {} : { enabled: argv.enabled }),
  };
  const e = await ok(
    mainApi(context).PATCH('/org/webhooks/{webhook_id}', { ...path(argv.id), body }),
  );
  showEndpoint(context.json, e);
}

/** The commands on one endpoint: show, update, delete, rotate-secret, test, deliveries, retry. */
export function webhookActionCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return deliveriesCommand(
    cli
      .command(
        'show <id>',
        'one endpoint, without its secret',
        (y) => id(y),
        async (argv) => {
          const context = await contextOf(argv);
          const e = await ok(mainApi(context).GET('/org/webhooks/{webhook_id}', path(argv.id)));
          showEndpoint(context.json, e);
        },
      )
      .command(
        'update <id>',
        'change the URL or events, or disable and re-enable it',
        (y) =>
          id(y)
            .option('url', { type: 'string' })
            .option('event', { type: 'array', string: true, choices: WEBHOOK_EVENT_TYPES })
            .option('enabled', { type: 'boolean' }),
        (argv) => updateEndpoint(argv),
      )
      .command(
        'delete <id>',
        'delete the endpoint and its delivery log',
        (y) => id(y),
        async (argv) => {
          const context = await contextOf(argv);
          await ok(mainApi(context).DELETE('/org/webhooks/{webhook_id}', path(argv.id)));
          emit(context.json, { deleted: argv.id }, () => `deleted ${argv.id}`);
        },
      )
      .command(
        'rotate-secret <id>',
        'a new signing secret, printed once; the old one signs beside it for 24 hours',
        (y) => id(y),
        async (argv) => {
          const context = await contextOf(argv);
          const e = await ok(
            mainApi(context).POST('/org/webhooks/{webhook_id}/rotate-secret', path(argv.id)),
          );
          showEndpoint(context.json, e);
        },
      )
      .command(
        'test <id>',
        'send a webhook.test event to the endpoint',
        (y) => id(y),
        async (argv) => {
          const context = await contextOf(argv);
          const sent = await ok(
            mainApi(context).POST('/org/webhooks/{webhook_id}/test', path(argv.id)),
          );
          emit(context.json, sent, () => `queued ${sent.event_id}`);
        },
      )
      .command(
        'retry <id> <delivery>',
        'send a delivery again now',
        (y) => id(y).positional('delivery', { type: 'string', demandOption: true }),
        async (argv) => {
          const context = await contextOf(argv);
          await ok(
            mainApi(context).POST('/org/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', {
              params: { path: { webhook_id: argv.id, delivery_id: argv.delivery } },
            }),
          );
          emit(context.json, { retried: argv.delivery }, () => `retrying ${argv.delivery}`);
        },
      ),
  );
}
