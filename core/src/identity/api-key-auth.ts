import { unauthenticated } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { ApiKeyRecord, WriteTransaction } from '../ports/storage.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { constantTimeEqual, hashSecret, parseApiKey } from '../secrets/index.js';
import { recordAudit, recordSignInFailure } from '../audit-receipts/record.js';

const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticateApiKey(deps: Deps, plaintext: string): Promise<Actor> {
  const { storage, clock } = deps;
  const parsed = parseApiKey(plaintext);
  if (parsed === null) throw unauthenticated('invalid API key');
  const { key_id: keyId, secret } = parsed;
  const actor = await storage.write(async (tx): Promise<Actor | null> => {
    const key = await tx.apiKeys.byId(keyId);
    if (!key) return null;
    const now = clock.now();
    if (key.revoked_at !== null || !constantTimeEqual(hashSecret(secret), key.secret_hash)) {
      // A known key presented wrongly counts against its organization, aggregated per window
      // (docs/audit.md, "Failed sign-ins"); it is kept although the caller gets a 401.
      await recordSignInFailure(tx, key.org_id, now);
      return null;
    }
    if (key.last_used_at === null) {
      await firstUse(tx, key, now);
    } else if (now.getTime() - Date.parse(key.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      // last_used_at is kept to the minute, so a burst of automation calls is not a burst of writes.
      await tx.apiKeys.touch(keyId, now.toISOString());
    }
    return { kind: 'api_key', keyId, orgId: key.org_id, role: 'member' };
  });
  if (actor === null) throw unauthenticated('invalid API key');
  return actor;
}

/**
 * The first use of a key is audited once: under the audit chain lock the key is read again, so
 * of two first uses at once the second finds it used.
 */
async function firstUse(tx: WriteTransaction, key: ApiKeyRecord, now: Date) {
  const keyId = key.key_id;
  await tx.lock(lockKeys.auditChain(key.org_id));
  const fresh = await tx.apiKeys.byId(keyId);
  if (!fresh || fresh.last_used_at !== null) return;
  await tx.apiKeys.touch(keyId, now.toISOString());
  await recordAudit(
    tx,
    key.org_id,
    { kind: 'api_key', id: keyId },
    { type: 'api_key.first_used', key_id: keyId, name: key.name, created_by: key.created_by },
    now,
  );
}
