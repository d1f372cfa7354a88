import { NoteError } from '../note/errors.js';
import { parseKeysDocument, trustVkey, type TrustedKey } from '../note/keyring.js';

/** What the key box holds: nothing, or the keys it names, or why it cannot be read. */
export type KeyInput =
  { status: 'none' } | { status: 'keys'; keys: TrustedKey[] } | { status: 'bad'; message: string };

/**
 * Reads the key box: a keys document (`/.well-known/runledger-keys.json`, starting with `{`), or
 * verifier key strings (`<name>+<8 hex key id>+<base64>`) separated by white space. Each text is
 * read the way `runledger-verify --key` reads the same thing.
 */
export function parseKeyText(text: string): KeyInput {
  const trimmed = text.trim();
  if (trimmed === '') return { status: 'none' };
  try {
    if (trimmed.startsWith('{')) {
      return { status: 'keys', keys: parseKeysDocument(JSON.parse(trimmed) as unknown) };
    }
    return { status: 'keys', keys: trimmed.split(/\s+/).map(trustVkey) };
  } catch (error) {
    if (error instanceof NoteError || error instanceof SyntaxError) {
      return { status: 'bad', message: `the key cannot be read: ${error.message}` };
    }
    throw error;
  }
}
