import type { Argv } from 'yargs';
import { writeConfig } from '../config/file.js';
import { contextOf, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import { mainApi, ok } from '../http/client.js';
import { emit, fields, note } from '../output.js';
import { firstLineOfStdin, readSecret } from './secret.js';

/** The token of a sign-in link, or the text itself when someone pasted just the token. */
export function tokenFrom(linkOrToken: string): string {
  const trimmed = linkOrToken.trim();
  if (/^https?:\/\//.test(trimmed)) {
    const token = new URL(trimmed).searchParams.get('token');
    if (!token) throw new CliError('local_input', 'that link has no token in it');
    return token;
  }
  if (trimmed === '') throw new CliError('local_input', 'no token given');
  return trimmed;
}

async function loginWithEmail(context: Context, email: string): Promise<void> {
  const api = mainApi(context, true);
  const requested = await ok(api.POST('/auth/request', { body: { email } }));
  let token: string;
  if (requested.dev_link) {
    // Development without SMTP: the server hands back the link, so follow it here.
    note('development server: following the sign-in link it returned');
    token = tokenFrom(requested.dev_link);
  } else {
    note(`A sign-in link was sent to ${email}. Paste the link (or its token) and press Enter:`);
    token = tokenFrom(await firstLineOfStdin('no sign-in link or token on stdin'));
  }
  const verified = await ok(api.POST('/auth/verify', { body: { token } }));
  await writeConfig(context.configFile, {
    ...context.stored,
    base_url: context.baseUrl,
    credential: { kind: 'jwt', value: verified.access_token, email: verified.user.email },
  });
  emit(context.json, { user: verified.user, config_file: context.configFile }, () =>
    [
      `signed in as ${verified.user.email} (${verified.user.role} of ${verified.user.org_name})`,
      `token saved to ${context.configFile}`,
    ].join('\n'),
  );
}

async function loginWithApiKey(context: Context, key: string): Promise<void> {
  // Checked before it is stored, so a typo fails now rather than on the next command.
  const me = await ok(mainApi({ ...context, token: key }).GET('/auth/me'));
  await writeConfig(context.configFile, {
    ...context.stored,
    base_url: context.baseUrl,
    credential: { kind: 'api_key', value: key, email: me.email },
  });
  emit(context.json, { user: me, config_file: context.configFile }, () =>
    [`API key ${me.id} of ${me.org_name} works`, `key saved to ${context.configFile}`].join('\n'),
  );
}

export function authCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli
    .command(
      'login',
      'sign in with an e-mail link (or store an API key); the credential goes to a 0600 config file',
      (y) =>
        y
          .option('email', { type: 'string', describe: 'request a sign-in link for this address' })
          .option('api-key', {
            type: 'string',
            describe:
              'store an API key (rlk_…) instead: bare, from RUNLEDGER_API_KEY if set, else stdin; `-` reads stdin',
          })
          .conflicts('email', 'api-key'),
      async (argv) => {
        const context = await contextOf(argv);
        if (argv.email) return loginWithEmail(context, argv.email);
        const key = await readSecret({
          flag: argv['api-key'],
          flagName: '--api-key',
          envName: 'RUNLEDGER_API_KEY',
          env: context.env,
        });
        if (!key) {
          throw new CliError('usage', 'give --email, or --api-key, or set RUNLEDGER_API_KEY');
        }
        return loginWithApiKey(context, key);
      },
    )
    .command(
      'whoami',
      'show who the stored credential (or RUNLEDGER_TOKEN) signs in as',
      (y) => y,
      async (argv) => {
        const context = await contextOf(argv);
        const me = await ok(mainApi(context).GET('/auth/me'));
        emit(context.json, me, () =>
          fields([
            ['email', me.email],
            ['id', me.id],
            ['kind', me.kind],
            ['role', me.role],
            ['organization', `${me.org_name} (${me.org_id})`],
            ['server', context.baseUrl],
          ]),
        );
      },
    );
}
