import { checkpointSigner, devSigningKey, type RetiredKey } from '@runledger/adapters';
import type { CheckpointSigner } from '@runledger/core/ports';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

type Env = Record<string, string | undefined>;

/** The checkpoint key and this instance's name (docs/checkpoints.md#keys), parsed at start. */
export interface SigningConfig {
  /** SIGNING_KEY, or in development the key generated into DATA_DIR/signing-key. */
  checkpointSigner: CheckpointSigner;
  /**
   * INSTANCE_ID: names this instance's router day files, `YYYY-MM-DD.<id>.receipts.jsonl`; null
   * (unset) writes `YYYY-MM-DD.receipts.jsonl` (docs/checkpoints.md#router-day-files).
   */
  instanceId: string | null;
}

const Iso = z.iso.datetime();
const Retired = z.array(z.object({ vkey: z.string(), not_before: Iso, not_after: Iso }));
const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** SIGNING_KEY_NOT_BEFORE's default: the key in use signs at any time until it is retired. */
const EPOCH = '1970-01-01T00:00:00.000Z';

function retiredKeys(raw: string | undefined): RetiredKey[] {
  if (raw === undefined || raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError('SIGNING_KEYS_RETIRED must be a JSON array');
  }
  const parsed = Retired.safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      'SIGNING_KEYS_RETIRED must be a JSON array of {"vkey", "not_before", "not_after"} (ISO 8601 UTC times)',
    );
  }
  return parsed.data;
}

function instanceIdFrom(env: Env): string | null {
  const raw = env.INSTANCE_ID;
  if (raw === undefined || raw === '') return null;
  if (!INSTANCE_ID.test(raw)) {
    throw new ConfigError(`INSTANCE_ID must be 1 to 64 letters, digits, '-' or '_', got "${raw}"`);
  }
  return raw;
}

/**
 * Production needs SIGNING_KEY; development generates one into DATA_DIR (mode 0600), named for the
 * host of PUBLIC_BASE_URL. A bad key stops the start; no message ever repeats the key.
 */
export function loadSigningConfig(
  env: Env,
  options: { production: boolean; dataDir: string; publicBaseUrl: string },
): SigningConfig {
  let skey = env.SIGNING_KEY ?? '';
  if (skey === '') {
    if (options.production) {
      throw new ConfigError(
        'APP_ENV=production requires SIGNING_KEY (a signed-note signer key, PRIVATE+KEY+<name>+<key id>+<base64>; docs/checkpoints.md tells how to make one); refusing to start',
      );
    }
    skey = devSigningKey(options.dataDir, new URL(options.publicBaseUrl).host);
  }
  const notBefore = env.SIGNING_KEY_NOT_BEFORE ?? EPOCH;
  if (!Iso.safeParse(notBefore).success) {
    throw new ConfigError('SIGNING_KEY_NOT_BEFORE must be an ISO 8601 UTC time');
  }
  const retired = retiredKeys(env.SIGNING_KEYS_RETIRED);
  try {
    return {
      checkpointSigner: checkpointSigner({ skey, notBefore, retired }),
      instanceId: instanceIdFrom(env),
    };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // The verify package's messages name the faulty part, never the key material.
    const reason = error instanceof Error ? error.message : 'unreadable';
    throw new ConfigError(`SIGNING_KEY or SIGNING_KEYS_RETIRED is not valid: ${reason}`);
  }
}
