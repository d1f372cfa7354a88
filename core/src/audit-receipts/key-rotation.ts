import { keyIdHex } from '@runledger/verify/note';
import { lockKeys } from '../ports/lock-keys.js';
import type { Storage } from '../ports/storage.js';
import type { AuditActor } from '../schemas/audit-receipt.js';
import { recordAudit } from './record.js';

/** The `deployment_state` name of the checkpoint key id the deployment last started with. */
export const SIGNING_KEY_STATE = 'signing_key_id';

const DEPLOYMENT: AuditActor = { kind: 'deployment', id: null };

/** What a start found: the key id in use (hex), the one before it, and the receipts written. */
export interface KeyRotationResult {
  key_id: string;
  previous_key_id: string | null;
  receipts: number;
}

/**
 * Run at every start: compares the signing key id with the one the deployment last started with.
 * The first start ever stores it; a different one is stored and recorded as one
 * `signing_key.rotated` receipt in every organization's audit chain, in the same transaction and
 * under the deployment lock, so two instances starting at once with the new key record it once.
 */
export async function recordSigningKeyRotation(
  storage: Storage,
  keyId: number,
  now: Date,
): Promise<KeyRotationResult> {
  const current = keyIdHex(keyId);
  return storage.write(async (tx) => {
    await tx.lock(lockKeys.deployment(SIGNING_KEY_STATE));
    const previous = await tx.deploymentState.get(SIGNING_KEY_STATE);
    if (previous === current) return { key_id: current, previous_key_id: previous, receipts: 0 };
    await tx.deploymentState.put(SIGNING_KEY_STATE, current);
    if (previous === null) return { key_id: current, previous_key_id: null, receipts: 0 };
    // Org ids in order: every instance takes the audit chain locks in the same order.
    const orgIds = await tx.orgs.ids();
    for (const orgId of orgIds) {
      await recordAudit(
        tx,
        orgId,
        DEPLOYMENT,
        { type: 'signing_key.rotated', key_id: current, previous_key_id: previous },
        now,
      );
    }
    return { key_id: current, previous_key_id: previous, receipts: orgIds.length };
  });
}
