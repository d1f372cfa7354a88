import { HASH_SIZE } from '../merkle/hash.js';
import { base64Decode, base64Encode } from './base64.js';
import { NoteError } from './errors.js';

/**
 * C2SP tlog-checkpoint body: the origin line, the tree size in decimal (no leading zeros), the root
 * hash in standard base64, then optional non-empty extension lines; every line ends in a newline.
 * runledger adds one extension line, `time <ISO 8601 UTC>`: when the checkpoint was signed, so a
 * verifier can pick the key that was valid then (see keyring.ts).
 */
export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Uint8Array;
  extensions: readonly string[];
}

const TIME_PREFIX = 'time ';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  if (origin === '' || origin.includes('\n'))
    throw new NoteError('malformed', 'origin must be one non-empty line');
  if (!Number.isSafeInteger(size) || size < 0)
    throw new NoteError('malformed', 'tree size must be a safe integer ≥ 0');
  if (rootHash.length !== HASH_SIZE) throw new NoteError('malformed', 'root hash must be 32 bytes');
  if (extensions.some((line) => line === '' || line.includes('\n'))) {
    throw new NoteError('malformed', 'extension lines must be non-empty single lines');
  }
  return [origin, String(size), base64Encode(rootHash), ...extensions]
    .map((l) => l + '\n')
    .join('');
}

/** Parses a checkpoint body; throws NoteError `malformed`. Sizes beyond 2^53 are refused. */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new NoteError('malformed', 'a checkpoint ends with a newline');
  const [origin, size, root, ...extensions] = text.slice(0, -1).split('\n');
  if (origin === undefined || size === undefined || root === undefined) {
    throw new NoteError('malformed', 'a checkpoint has at least 3 lines');
  }
  if (origin === '') throw new NoteError('malformed', 'the checkpoint origin is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new NoteError('malformed', 'the checkpoint tree size is not a decimal number');
  }
  const rootHash = base64Decode(root);
  if (rootHash === null || rootHash.length !== HASH_SIZE) {
    throw new NoteError('malformed', 'the checkpoint root hash is not 32 bytes of base64');
  }
  if (extensions.some((line) => line === ''))
    throw new NoteError('malformed', 'empty extension line');
  return { origin, size: Number(size), rootHash, extensions };
}

/** The `time` extension line for a signing time. */
export function timeExtension(at: Date | string): string {
  return TIME_PREFIX + (typeof at === 'string' ? at : at.toISOString());
}

/** The signing time a checkpoint states in its `time` extension line, if any. */
export function checkpointTime(checkpoint: Checkpoint): string | undefined {
  const line = checkpoint.extensions.find((l) => l.startsWith(TIME_PREFIX));
  const value = line?.slice(TIME_PREFIX.length);
  return value !== undefined && ISO_UTC.test(value) ? value : undefined;
}

/** The origin of an organization's ledger: `<host of PUBLIC_BASE_URL>/orgs/<org_id>`. */
export function ledgerOrigin(publicBaseUrl: string, orgId: string): string {
  return `${new URL(publicBaseUrl).host}/orgs/${orgId}`;
}
