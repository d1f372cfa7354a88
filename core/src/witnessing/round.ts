import { parseCosignerVkey, verifyCosignatures, type CosignerKey } from '@runledger/verify/witness';
import { signedCheckpoint, type CheckpointContext } from '../checkpoints/checkpoint.js';
import { consistencyProofAt, treeSize } from '../checkpoints/tree.js';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';
import type { Clock } from '../ports/clock.js';
import type { Storage } from '../ports/storage.js';
import type { WitnessClient, WitnessEndpoint } from '../ports/witness-client.js';
import { askWitness, type WitnessOutcome } from './ask-witness.js';
import { TILED_LOGS } from './tiles.js';

/**
 * Gets each log's newest checkpoint cosigned by the configured witnesses (docs/witnesses.md): a
 * round signs a checkpoint at the tree's current size (or reuses the one already sent at that
 * size), asks every witness that has not cosigned it, and stores the note with the cosignatures
 * received and where each witness now stands. Runs beside minting and never blocks it.
 */
export interface WitnessingDeps {
  storage: Storage;
  clock: Clock;
  checkpointSigner: CheckpointSigner;
  publicBaseUrl: string;
  client: WitnessClient;
  witnesses: readonly WitnessEndpoint[];
}

export interface WitnessReport {
  orgId: string;
  log: string;
  size: number;
  witness: string;
  outcome: WitnessOutcome;
  detail: string;
}

interface Plan {
  size: number;
  note: string;
  pending: { witness: WitnessEndpoint; key: CosignerKey; position: number | null }[];
}

async function plan(deps: WitnessingDeps, keys: CosignerKey[], orgId: string, log: string) {
  const context: CheckpointContext = {
    signer: deps.checkpointSigner,
    publicBaseUrl: deps.publicBaseUrl,
    now: deps.clock.now(),
  };
  return deps.storage.read(async (tx): Promise<Plan | null> => {
    const size = await treeSize(tx, orgId, log);
    if (size === 0) return null;
    const latest = await tx.witnessedCheckpoints.latest(orgId, log);
    const note =
      latest?.size === size
        ? latest.note
        : (await signedCheckpoint(tx, context, orgId, log, size)).checkpoint;
    const pending = [];
    for (const [i, witness] of deps.witnesses.entries()) {
      const key = keys[i]!;
      if (verifyCosignatures(note, [key]).valid.length > 0) continue;
      pending.push({
        witness,
        key,
        position: await tx.witnessedCheckpoints.position(orgId, log, witness.vkey),
      });
    }
    return pending.length === 0 ? null : { size, note, pending };
  });
}

export async function witnessLog(
  deps: WitnessingDeps,
  orgId: string,
  log: string,
): Promise<WitnessReport[]> {
  const keys = deps.witnesses.map((w) => parseCosignerVkey(w.vkey));
  const todo = await plan(deps, keys, orgId, log);
  if (todo === null) return [];
  const proofFrom = (old: number) =>
    deps.storage.read((tx) => consistencyProofAt(tx, orgId, log, old, todo.size));
  const attempts = await Promise.all(
    todo.pending.map((p) =>
      askWitness({ client: deps.client, ...p, note: todo.note, size: todo.size, proofFrom }),
    ),
  );
  const lines = attempts.flatMap((a) => a.lines);
  const note = todo.note + lines.join('');
  const at = deps.clock.now().toISOString();
  await deps.storage.write(async (tx) => {
    if (lines.length > 0) {
      const cosignatures = verifyCosignatures(note, keys).valid.length;
      await tx.witnessedCheckpoints.save({
        org_id: orgId,
        log,
        size: todo.size,
        note,
        cosignatures,
        witnessed_at: at,
      });
    }
    for (const [i, a] of attempts.entries()) {
      if (a.position !== null)
        await tx.witnessedCheckpoints.setPosition(
          orgId,
          log,
          todo.pending[i]!.witness.vkey,
          a.position,
          at,
        );
    }
  });
  return attempts.map((a, i) => ({
    orgId,
    log,
    size: todo.size,
    witness: todo.pending[i]!.witness.url,
    outcome: a.outcome,
    detail: a.detail,
  }));
}

/** One round over every organization's logs, one log at a time. */
export async function witnessAllLogs(deps: WitnessingDeps): Promise<WitnessReport[]> {
  if (deps.witnesses.length === 0) return [];
  const orgs = await deps.storage.read((tx) => tx.orgs.ids());
  const reports: WitnessReport[] = [];
  for (const orgId of orgs) {
    for (const log of TILED_LOGS) reports.push(...(await witnessLog(deps, orgId, log)));
  }
  return reports;
}
