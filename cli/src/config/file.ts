import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from '../errors.js';

export type Env = Record<string, string | undefined>;

export interface Credential {
  kind: 'jwt' | 'api_key';
  value: string;
  /** Who signed in, for `whoami` without a round trip and for people reading the file. */
  email?: string;
}

/** The per-user file `login` writes. */
export interface StoredConfig {
  base_url?: string;
  credential?: Credential;
}

/** $RUNLEDGER_CONFIG, else $XDG_CONFIG_HOME/runledger/config.json, else ~/.config/runledger/config.json. */
export function configPath(env: Env): string {
  if (env.RUNLEDGER_CONFIG) return env.RUNLEDGER_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'runledger', 'config.json');
}

export async function readConfig(path: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError('local_input', `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    return parsed as StoredConfig;
  } catch {
    throw new CliError('local_input', `${path} is not a JSON object; fix or delete it`);
  }
}

/**
 * The file holds a credential, so it is created 0600 (and its folder 0700) before a byte is written,
 * then renamed into place so a crash never leaves half a file. A stale temp file is removed and the
 * new one created exclusively: reusing it would keep its old mode, anyone's open descriptor on it,
 * or a symlink pointing elsewhere.
 */
export async function writeConfig(path: string, config: StoredConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await rm(temp, { force: true });
  const file = await open(temp, 'wx', 0o600);
  try {
    // The umask can only narrow the mode, but make 0600 exact before the credential is written.
    await file.chmod(0o600);
    await file.writeFile(`${JSON.stringify(config, null, 2)}\n`);
  } finally {
    await file.close();
  }
  await rename(temp, path);
}
