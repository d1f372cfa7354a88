import { configPath, readConfig, type Env, type StoredConfig } from './config/file.js';
import { CliError } from './errors.js';
import { jsonMode, type JsonMode } from './output.js';

/** The options every command takes. */
export interface GlobalArgs {
  'base-url'?: string | undefined;
  'router-url'?: string | undefined;
  /** Absent, bare (`''`: the whole answer) or a comma-separated list of fields. */
  json?: string | undefined;
}

export interface Context {
  baseUrl: string;
  routerUrl: string;
  json: JsonMode;
  configFile: string;
  stored: StoredConfig;
  /** RUNLEDGER_TOKEN, else the stored JWT or API key when it was stored for `baseUrl`. */
  token: string | undefined;
  /** A credential is stored, but for another server, so it is withheld from this one. */
  storedForOtherServer: boolean;
  env: Env;
}

const DEFAULT_BASE_URL = 'http://localhost:8080';
const DEFAULT_ROUTER_URL = 'http://127.0.0.1:8081';

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function checkedUrl(url: string, source: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliError('usage', `${source} is not an http(s) URL: "${url}"`);
  }
  return trimSlash(url);
}

/** Scheme, host, port and path, so `http://Host:80/` and `http://host` name the same server. */
function sameServer(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  try {
    return trimSlash(new URL(a).href) === trimSlash(new URL(b).href);
  } catch {
    return false;
  }
}

/**
 * Flags win over the environment, which wins over what `login` stored. The stored credential is only
 * ever sent to the server it was stored for: a mistyped or handed-over URL must not receive it.
 */
export async function contextOf(argv: GlobalArgs, env: Env = process.env): Promise<Context> {
  const configFile = configPath(env);
  const stored = await readConfig(configFile);
  const base = argv['base-url'] ?? env.RUNLEDGER_URL ?? stored.base_url ?? DEFAULT_BASE_URL;
  const router = argv['router-url'] ?? env.RUNLEDGER_ROUTER_URL ?? DEFAULT_ROUTER_URL;
  const baseUrl = checkedUrl(base, '--base-url');
  const storedHere = sameServer(baseUrl, stored.base_url);
  return {
    baseUrl,
    routerUrl: checkedUrl(router, '--router-url'),
    json: jsonMode(argv.json),
    configFile,
    stored,
    token: env.RUNLEDGER_TOKEN || (storedHere ? stored.credential?.value : undefined),
    storedForOtherServer: stored.credential !== undefined && !storedHere,
    env,
  };
}

export function requireToken(context: Context): string {
  if (context.token) return context.token;
  if (context.storedForOtherServer) {
    throw new CliError(
      'not_signed_in',
      `no credential for ${context.baseUrl}: run \`runledger login --base-url ${context.baseUrl}\`, or set RUNLEDGER_TOKEN`,
    );
  }
  throw new CliError(
    'not_signed_in',
    'not signed in: run `runledger login --email you@example.com`, `runledger login --api-key -` (the key on stdin) or set RUNLEDGER_TOKEN',
  );
}
