import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { WEBHOOK_EVENT_TYPES } from '../enums.js';
import { mainApi, ok } from '../http/client.js';
import { listCommand } from './list.js';
import { webhookActionCommands } from './webhook-actions.js';
import { showEndpoint } from './webhook-view.js';

export function webhookCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command(
    'webhooks',
    'signed webhooks to your systems: endpoints, secrets and the delivery log (owners only)',
    (webhooks) =>
      webhookActionCommands(
        listCommand(webhooks, {
          command: 'list',
          describe: 'list the webhook endpoints of your organization',
          cursorFlag: '--after',
          key: 'webhooks',
          fetch: async (context, _argv, after, limit) => {
            const page = await ok(
              mainApi(context).GET('/org/webhooks', { params: { query: { limit, after } } }),
            );
            return { rows: page.webhooks, next: page.next, page };
          },
          columns: [
            ['ID', (e) => e.id],
            ['URL', (e) => e.url],
            ['ENABLED', (e) => (e.enabled ? 'yes' : `no (${e.disabled_reason ?? '-'})`)],
            ['EVENTS', (e) => e.events.join(',')],
          ],
          examples: [['$0 webhooks list', 'every endpoint, without secrets']],
        }).command(
          'create <url>',
          'register an endpoint; its signing secret is printed once',
          (y) =>
            y
              .positional('url', { type: 'string', demandOption: true })
              .option('event', {
                type: 'array',
                string: true,
                choices: WEBHOOK_EVENT_TYPES,
                demandOption: true,
                describe: 'an event type to deliver (repeat the flag for several)',
              })
              .option('description', { type: 'string' })
              .example(
                '$0 webhooks create https://hooks.example.com/rl --event receipt.minted',
                'deliver each minted receipt',
              ),
          async (argv) => {
            const context = await contextOf(argv);
            const body = {
              url: argv.url,
              events: argv.event as (typeof WEBHOOK_EVENT_TYPES)[number][],
              ...(argv.description === undefined ? {} : { description: argv.description }),
            };
            showEndpoint(context.json, await ok(mainApi(context).POST('/org/webhooks', { body })));
          },
        ),
      ).demandCommand(
        1,
        'webhooks needs a subcommand: list, create, show, update, delete, rotate-secret, test, deliveries or retry',
      ),
  );
}
