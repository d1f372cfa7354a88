import { readFile } from 'node:fs/promises';
import { VerifyError } from '../errors.js';
import { NoteError } from '../note/errors.js';
import { parseKeysDocument, trustVkey, type TrustedKey } from '../note/keyring.js';

/**
 * The trusted keys named on the command line: each a verifier key string, or a path to a keys
 * document (`/.well-known/runledger-keys.json`). A bad key or file is an input error (exit 2).
 */
export async function loadTrustedKeys(specs: readonly string[]): Promise<TrustedKey[] | undefined> {
  if (specs.length === 0) return undefined;
  const keys: TrustedKey[] = [];
  for (const spec of specs) {
    try {
      if (/^[^+\s]+\+[0-9a-f]{8}\+/.test(spec)) keys.push(trustVkey(spec));
      else keys.push(...parseKeysDocument(JSON.parse(await readFile(spec, 'utf8')) as unknown));
    } catch (error) {
      const why =
        error instanceof NoteError || error instanceof SyntaxError
          ? error.message
          : (error as Error).message;
      throw new VerifyError('unreadable_input', `--key ${spec}: ${why}`, { cause: error });
    }
  }
  return keys;
}

/** A whole small file (a share JSON, a checkpoint, a proof); unreadable means exit 2. */
export async function readSmallFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new VerifyError('unreadable_input', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export function parseJsonFile(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new VerifyError('unreadable_input', `${path} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
