import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { formatSkey } from '@runledger/verify/note';
import { readOrCreateSecretFile } from './secret-file.js';

/** The file in DATA_DIR that holds a development deployment's signing key. */
export const DEV_SIGNING_KEY_FILE = 'signing-key';

/**
 * A development deployment's checkpoint key: generated once into DATA_DIR (mode 0600) and reused on
 * every restart, so checkpoints signed earlier keep verifying. Production sets SIGNING_KEY instead.
 */
export function devSigningKey(dataDir: string, keyName: string): string {
  return readOrCreateSecretFile(join(dataDir, DEV_SIGNING_KEY_FILE), () =>
    formatSkey(keyName, randomBytes(32)),
  );
}
