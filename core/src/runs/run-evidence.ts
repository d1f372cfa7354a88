import type { Clock } from '../ports/clock.js';
import type { EvidenceRecord, RunRecord, WriteTransaction } from '../ports/storage.js';
import { loadRunForUpdate, toEvidence, loadRun } from './views.js';
import { nowIso } from '../time.js';
import { inputsChanged } from './inputs-changed.js';
import type { Actor } from '../actor.js';
import { sha256Hex } from '@runledger/verify/hash';
import { actorId } from '../actor.js';
import { newId } from '../ids.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { Evidence, EvidenceIn } from '../schemas/evidence.js';
import type { Deps } from '../deps.js';
import type { RunUseCases } from './api.js';
import { assertCanChangeInputs } from './lifecycle.js';

/** Evidence on a run: a text item or an uploaded file, each sending the run back to draft. */
export function runEvidenceUseCases(
  deps: Deps,
): Pick<RunUseCases, 'assertCanAddEvidence' | 'addEvidence' | 'addFileEvidence'> {
  const { storage, clock, random, blobs } = deps;
  return {
    async assertCanAddEvidence(actor, runId) {
      await storage.read(async (tx) => {
        assertCanChangeInputs((await loadRun(tx, actor.orgId, runId)).state);
      });
    },

    async addEvidence(actor, runId, input: EvidenceIn): Promise<Evidence> {
      return storage.write((tx) =>
        insertEvidence(clock, tx, actor, runId, (run, now) => ({
          id: newId('evd', random),
          org_id: actor.orgId,
          run_id: run.id,
          kind: input.kind,
          label: input.label,
          content: input.content,
          sha256: sha256Hex(input.content),
          size: utf8Length(input.content),
          filename: null,
          content_type: null,
          created_at: now,
          created_by: actorId(actor),
        })),
      );
    },

    async addFileEvidence(actor, runId, input) {
      // The caller had the blob store hash and sync the file (the slow part) before this transaction,
      // so an upload never holds up other writers. The blob joins the store inside the transaction,
      // under the blob's lock, so the cleanup's reference count cannot race another upload of the
      // same bytes.
      const prepared = input.blob;
      let kept = false;
      try {
        return await storage.write(async (tx) => {
          assertCanChangeInputs((await loadRun(tx, actor.orgId, runId)).state);
          await tx.lock(lockKeys.blob(prepared.sha256));
          const blob = await prepared.keep();
          kept = true;
          const id = newId('evd', random);
          try {
            return await insertEvidence(clock, tx, actor, runId, (run, now) => ({
              id,
              org_id: actor.orgId,
              run_id: run.id,
              kind: 'file',
              label: input.label,
              content: null,
              sha256: blob.sha256,
              size: blob.size,
              filename: input.filename,
              content_type: input.content_type,
              created_at: now,
              created_by: actorId(actor),
            }));
          } catch (error) {
            // Our own row, if inserted, is rolled back with the transaction: it does not count.
            const own = (await tx.evidence.get(actor.orgId, runId, id)) ? 1 : 0;
            if ((await tx.evidence.countFileRefs(blob.sha256)) - own === 0) {
              await blobs.delete(blob.sha256);
            }
            throw error;
          }
        });
      } finally {
        if (!kept) await prepared.discard();
      }
    },
  };
}

async function insertEvidence(
  clock: Clock,
  tx: WriteTransaction,
  actor: Actor,
  runId: string,
  record: (run: RunRecord, now: string) => EvidenceRecord,
) {
  const run = await loadRunForUpdate(tx, actor.orgId, runId);
  const now = nowIso(clock);
  const evidence = record(run, now);
  await inputsChanged(tx, run, now, tx.evidence.insert(evidence));
  return toEvidence(evidence);
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length;
