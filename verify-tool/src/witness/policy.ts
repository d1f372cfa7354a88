import { keyIdHex } from '../note/keys.js';
import { verifyCosignatures } from './cosignature.js';
import type { CosignerKey } from './cosigner-key.js';

/**
 * A verifier's witness policy: at least `threshold` of `witnesses` must have cosigned a checkpoint
 * (C2SP tlog-cosignature) before it is trusted. Each witness counts once.
 */
export interface WitnessPolicy {
  witnesses: readonly CosignerKey[];
  threshold: number;
}

export interface WitnessCheck {
  ok: boolean;
  required: number;
  cosigned_by: { name: string; key_id: string; timestamp: number }[];
  message: string;
}

/** A policy, checked: 1 ≤ threshold ≤ the number of distinct witnesses. */
export function witnessPolicy(
  witnesses: readonly CosignerKey[],
  threshold?: number,
): WitnessPolicy {
  const distinct = witnesses.filter(
    (w, i) => witnesses.findIndex((o) => o.name === w.name && o.keyId === w.keyId) === i,
  );
  const k = threshold ?? distinct.length;
  if (!Number.isSafeInteger(k) || k < 1 || k > distinct.length) {
    throw new RangeError(
      `the witness threshold must be between 1 and the number of witness keys (${distinct.length})`,
    );
  }
  return { witnesses: distinct, threshold: k };
}

export function checkWitnessPolicy(note: string, policy: WitnessPolicy): WitnessCheck {
  const { valid, invalid } = verifyCosignatures(note, policy.witnesses);
  const ok = valid.length >= policy.threshold;
  const bad =
    invalid.length === 0 ? '' : `; cosignatures that do not verify: ${invalid.join(', ')}`;
  return {
    ok,
    required: policy.threshold,
    cosigned_by: valid.map((v) => ({
      name: v.name,
      key_id: keyIdHex(v.keyId),
      timestamp: v.timestamp,
    })),
    message: `${valid.length} of the required ${policy.threshold} witness cosignatures verify${bad}`,
  };
}
