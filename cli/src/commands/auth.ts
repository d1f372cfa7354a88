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

const loginBuilder = (y: Argv<GlobalArgs>) =>
  y
    .option('email', { type: 'string', describe: 'request a sign-in link for this address' })
    .option('api-key', {
      type: 'string',
      describe:
        'store an API key (rlk_…) instead: bare, from RUNLEDGER_API_KEY if set, else stdin; `-` reads stdin',
    })
    .conflicts('email', 'api-key')
    .example('$0 login --email ada@example.com', 'a sign-in link by e-mail')
    .example('printf %s "$KEY" | $0 login --api-key -', 'store an API key read from stdin');

async function login(argv: GlobalArgs & { email?: string | undefined; 'api-key'?: string }) {
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
}

/** Forgets the stored credential (the file keeps the server address); RUNLEDGER_TOKEN is the user's to unset. */
async function logout(argv: GlobalArgs) {
  const context = await contextOf(argv);
  const { credential, ...rest } = context.stored;
  if (credential !== undefined) await writeConfig(context.configFile, rest);
  const result = {
    removed: credential !== undefined,
    server: context.stored.base_url ?? null,
    config_file: context.configFile,
    token_in_environment: Boolean(context.env.RUNLEDGER_TOKEN),
  };
  emit(context.json, result, () =>
    credential === undefined
      ? `no stored credential in ${context.configFile}`
      : `signed out of ${result.server ?? context.baseUrl}: removed the ${credential.kind === 'jwt' ? 'token' : 'API key'} from ${context.configFile}`,
  );
  if (result.token_in_environment && context.json === false) {
    note('RUNLEDGER_TOKEN is still set and still signs in: unset it too');
  }
}

/** Who the credential signs in as, where it came from, and whether the server still takes it. */
async function authStatus(argv: GlobalArgs) {
  const context = await contextOf(argv);
  const fromEnv = Boolean(context.env.RUNLEDGER_TOKEN);
  const source = fromEnv ? 'RUNLEDGER_TOKEN' : context.token ? context.configFile : null;
  // What was stored (a sign-in JWT or an API key); a token in the environment could be either.
  const kind = fromEnv || !context.token ? null : (context.stored.credential?.kind ?? null);
  let user: Awaited<ReturnType<typeof whoIs>> | null = null;
  let problem: CliError | null = null;
  try {
    user = await whoIs(context);
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== 'not_signed_in') throw error;
    problem = error;
  }
  const status = { server: context.baseUrl, signed_in: user !== null, source, kind, user };
  const what = kind === 'jwt' ? 'sign-in token' : kind === 'api_key' ? 'API key' : 'token';
  emit(context.json, status, () =>
    fields([
      ['server', context.baseUrl],
      [
        'signed in',
        user
          ? `yes, as ${user.email} (${user.role} of ${user.org_name})`
          : `no: ${problem?.message ?? 'not signed in'}`,
      ],
      ['credential', source === null ? 'none' : `${what} from ${source}`],
    ]),
  );
  // The answer was printed; the exit code says "sign-in needed" for scripts.
  if (problem) throw new CliError('not_signed_in', problem.message);
}

const whoIs = async (context: Context) => ok(mainApi(context).GET('/auth/me'));

export function authCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli
    .command(
      'login',
      'sign in with an e-mail link (or store an API key); the credential goes to a 0600 config file',
      loginBuilder,
      login,
    )
    .command(
      'logout',
      'forget the stored credential',
      (y) => y.example('$0 logout', 'remove the stored token or key'),
      logout,
    )
    .command(
      'whoami',
      'show who the stored credential (or RUNLEDGER_TOKEN) signs in as',
      (y) => y.example('$0 whoami --json email', 'only {"email": …}'),
      async (argv) => {
        const context = await contextOf(argv);
        const me = await whoIs(context);
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
    )
    .command('auth', 'sign in, check and sign out: login, status, logout', (auth) =>
      auth
        .command('login', 'the same as `runledger login`', loginBuilder, login)
        .command(
          'status',
          'where the credential comes from and whether the server takes it (exit 4 when not signed in)',
          (y) => y.example('$0 auth status', 'signed in? as whom? with what?'),
          authStatus,
        )
        .command('logout', 'the same as `runledger logout`', (y) => y, logout)
        .demandCommand(1, 'auth needs a subcommand: login, status or logout'),
    );
}
