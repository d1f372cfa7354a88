import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { SHARE_IDENTITIES } from '../enums.js';
import type { components } from '../generated/main-api.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields, type JsonMode } from '../output.js';

type Org = components['schemas']['Org'];

function printOrg(json: JsonMode, org: Org) {
  emit(json, org, () =>
    fields([
      ['id', org.id],
      ['name', org.name],
      ['created', org.created_at],
      ['share identity', org.share_identity],
    ]),
  );
}

export function orgCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command('org', 'show and change your organization', (org) =>
    org
      .command(
        'show',
        'show your organization and how its shared receipts name people',
        (y) => y.example('$0 org show --json share_identity', 'print only {"share_identity": …}'),
        async (argv) => {
          const context = await contextOf(argv);
          printOrg(context.json, await ok(mainApi(context).GET('/org')));
        },
      )
      .command(
        'set',
        'change a setting of your organization (owner only; audited)',
        (y) =>
          y
            .option('share-identity', {
              choices: SHARE_IDENTITIES,
              demandOption: true,
              describe: 'how shared receipts show people: by e-mail, or by id only (docs/share.md)',
            })
            .example('$0 org set --share-identity id', 'shared receipts show people by id only'),
        async (argv) => {
          const context = await contextOf(argv);
          const changed = await ok(
            mainApi(context).PATCH('/org', { body: { share_identity: argv.shareIdentity } }),
          );
          printOrg(context.json, changed);
        },
      )
      .demandCommand(1, 'org needs a subcommand: show or set'),
  );
}
