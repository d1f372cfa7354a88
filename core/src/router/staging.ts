import { conflict, invalidInput } from '../errors.js';
import type { DatasetStageBody, DatasetStatus } from '../schemas/router.js';

/**
 * The dataset staging machine (docs/design.md#tribunal): pending → staging → ready | failed, and
 * pending → ready for data that needed no staging work. Every other move, including a repeat, is a
 * conflict; ready and failed are final.
 */
export const DATASET_TRANSITIONS: Readonly<Record<DatasetStatus, readonly DatasetStatus[]>> =
  Object.freeze({
    pending: Object.freeze(['staging', 'ready'] as const),
    staging: Object.freeze(['ready', 'failed'] as const),
    ready: Object.freeze([] as const),
    failed: Object.freeze([] as const),
  });

/** The status after a stage request, or a typed error; `error` belongs only to `failed`. */
export function nextDatasetStatus(from: DatasetStatus, input: DatasetStageBody): DatasetStatus {
  if (input.error !== undefined && input.status !== 'failed') {
    throw invalidInput('error is only accepted with status failed');
  }
  if (!DATASET_TRANSITIONS[from].includes(input.status)) {
    throw conflict(`a ${from} dataset cannot move to ${input.status}`);
  }
  return input.status;
}

/** Only a ready dataset can be granted. */
export function assertDatasetReady(status: DatasetStatus): void {
  if (status !== 'ready') throw conflict(`the dataset is ${status}, not ready`);
}
