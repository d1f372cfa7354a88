import { keyIdHex, parseNote, parseCheckpoint } from '@runledger/verify/note';
import { toHex } from '@runledger/verify/hash';
import { signedCheckpoint, type CheckpointContext } from '../checkpoints/checkpoint.js';
import type { Repositories, WitnessedCheckpointRecord } from '../ports/storage.js';
import type { SignedCheckpoint } from '../schemas/checkpoint.js';

/**
 * The checkpoint shown wherever one appears (docs/witnesses.md): the one witnesses cosigned when
 * there is one for the size asked, else one signed now. Without witnesses configured nothing is
 * ever witnessed, and every answer is signed now, as before.
 */
type Tx = Pick<Repositories, 'merkle' | 'witnessedCheckpoints'>;

function fromRecord(
  record: WitnessedCheckpointRecord,
  context: CheckpointContext,
): SignedCheckpoint {
  const body = parseCheckpoint(parseNote(record.note).text);
  return {
    checkpoint: record.note,
    tree_size: body.size,
    root_hash: toHex(body.rootHash),
    key_id: keyIdHex(context.signer.keyId),
  };
}

/** At exactly `size`: the cosigned note at that size, else one signed now. */
export async function checkpointAtSize(
  tx: Tx,
  context: CheckpointContext,
  orgId: string,
  log: string,
  size: number,
): Promise<SignedCheckpoint> {
  const witnessed = await tx.witnessedCheckpoints.atSize(orgId, log, size);
  return witnessed === null
    ? signedCheckpoint(tx, context, orgId, log, size)
    : fromRecord(witnessed, context);
}

/**
 * The latest cosigned checkpoint whose tree holds leaf `leastSize - 1` (any, when 0), else one
 * signed now at the current size.
 */
export async function latestCheckpoint(
  tx: Tx,
  context: CheckpointContext,
  orgId: string,
  log: string,
  leastSize = 0,
): Promise<SignedCheckpoint> {
  const witnessed = await tx.witnessedCheckpoints.latest(orgId, log);
  return witnessed !== null && witnessed.size >= leastSize && witnessed.size > 0
    ? fromRecord(witnessed, context)
    : signedCheckpoint(tx, context, orgId, log);
}
