import { canonicalJson } from '../canonical/json.js';
import { DEFAULT_RECEIPT_PREFIX } from '../chain/verifier.js';
import { receiptId } from '../receipts/id.js';
import { fromHex, toHex } from '../hash/hex.js';
import { sha256Hex, SHA256_HEX } from '../hash/sha256.js';
import { leafHash } from '../merkle/hash.js';
import { verifyInclusion } from '../merkle/verify.js';
import type { TrustedKey } from '../note/keyring.js';
import type { WitnessCheck, WitnessPolicy } from '../witness/policy.js';
import {
  checkSignedCheckpoint,
  type Authorship,
  type CheckpointFindingCode,
} from './signed-checkpoint.js';

/**
 * A shared receipt checked on its own, without the export: the share JSON carries
 * - `receipt`: `{receipt_id, org_seq, receipt_sha256, payload}` (a document without `receipt` is
 *   read as the receipt itself, which is the share view's shape);
 * - `checkpoint`: the signed checkpoint (C2SP signed note) of the organization's tree, or the
 *   server's `{checkpoint, tree_size, root_hash, key_id}` holding it (only the note is trusted);
 * - `inclusion_proof`: `{leaf_index, tree_size, hashes: [hex…]}`, the RFC 9162 audit path of the
 *   receipt in the tree of `tree_size` leaves, which must be the checkpoint's size.
 */
export type SharedReceiptFindingCode =
  | CheckpointFindingCode
  /** The document lacks a field or has one of the wrong type. */
  | 'bad_share'
  /** sha256(canonical(payload)) differs from receipt_sha256. */
  | 'hash_mismatch'
  /** receipt_id, org_seq or leaf_index disagree with each other or with the payload. */
  | 'field_mismatch'
  /** The inclusion proof does not lead from the receipt to the checkpoint's root. */
  | 'inclusion_invalid';

export interface SharedReceiptResult {
  ok: boolean;
  receipt_id: string | null;
  findings: { code: SharedReceiptFindingCode; message: string }[];
  checkpoint: { origin: string; tree_size: number; root_hash: string } | null;
  authorship: Authorship;
  witnessed?: WitnessCheck;
}

/** The name under which a receipt PDF attaches its share JSON (an embedded file). */
export const SHARE_JSON_ATTACHMENT = 'share.json';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function verifySharedReceipt(
  share: unknown,
  options: {
    keys?: readonly TrustedKey[];
    receiptPrefix?: string;
    witnesses?: WitnessPolicy;
  } = {},
): SharedReceiptResult {
  const findings: SharedReceiptResult['findings'] = [];
  const fail = (message: string): SharedReceiptResult => ({
    ok: false,
    receipt_id: null,
    findings: [{ code: 'bad_share', message }],
    checkpoint: null,
    authorship: { status: 'failed', message },
  });
  if (!isObject(share)) return fail('the share document is not a JSON object');
  const receipt = isObject(share.receipt) ? share.receipt : share;
  const { receipt_id, org_seq, receipt_sha256, payload } = receipt;
  const proof = share.inclusion_proof;
  if (
    typeof receipt_id !== 'string' ||
    !Number.isSafeInteger(org_seq) ||
    typeof receipt_sha256 !== 'string' ||
    !SHA256_HEX.test(receipt_sha256) ||
    !isObject(payload)
  ) {
    return fail('receipt needs receipt_id, org_seq, receipt_sha256 (64 hex) and payload');
  }
  // The note itself, or the server's `{checkpoint, tree_size, root_hash, key_id}` holding it.
  const note = isObject(share.checkpoint) ? share.checkpoint.checkpoint : share.checkpoint;
  if (typeof note !== 'string') return fail('checkpoint (a signed note) is missing');
  if (
    !isObject(proof) ||
    !Number.isSafeInteger(proof.leaf_index) ||
    !Number.isSafeInteger(proof.tree_size) ||
    !Array.isArray(proof.hashes)
  ) {
    return fail('inclusion_proof needs leaf_index, tree_size and hashes');
  }
  const hashes = proof.hashes.map((h) =>
    typeof h === 'string' && SHA256_HEX.test(h) ? fromHex(h) : null,
  );
  if (hashes.some((h) => h === null)) return fail('inclusion_proof.hashes must be 64-hex strings');

  const seq = org_seq as number;
  findings.push(
    ...receiptFindings(payload, seq, proof.leaf_index, receipt_id, receipt_sha256, options),
  );
  const checked = checkSignedCheckpoint(note, {
    originSuffix: `/orgs/${String(payload.org_id)}`,
    size: proof.tree_size as number,
    keys: options.keys,
    witnesses: options.witnesses,
  });
  findings.push(...checked.findings);
  if (
    checked.checkpoint !== null &&
    !includes(receipt_sha256, proof, hashes as Uint8Array[], checked.checkpoint.rootHash)
  ) {
    findings.push({
      code: 'inclusion_invalid',
      message: `the inclusion proof does not lead from the receipt to the checkpoint's root`,
    });
  }
  return {
    ok: findings.length === 0,
    receipt_id,
    findings,
    checkpoint: checked.checkpoint && {
      origin: checked.checkpoint.origin,
      tree_size: checked.checkpoint.size,
      root_hash: toHex(checked.checkpoint.rootHash),
    },
    authorship: checked.authorship,
    ...(checked.witnessed === undefined ? {} : { witnessed: checked.witnessed }),
  };
}

/** Whether the inclusion proof leads from the receipt's leaf to the checkpoint's root. */
function includes(
  receiptSha256: string,
  proof: Record<string, unknown>,
  hashes: Uint8Array[],
  root: Uint8Array,
): boolean {
  const leaf = leafHash(fromHex(receiptSha256) as Uint8Array);
  return verifyInclusion(proof.leaf_index as number, proof.tree_size as number, leaf, hashes, root);
}

/** The receipt against itself: its payload's hash, its sequence number in three places, its id. */
function receiptFindings(
  payload: Record<string, unknown>,
  seq: number,
  leafIndex: unknown,
  receipt_id: string,
  receipt_sha256: string,
  options: { receiptPrefix?: string },
): SharedReceiptResult['findings'] {
  const findings: SharedReceiptResult['findings'] = [];
  const computed = sha256Hex(canonicalJson(payload));
  if (computed !== receipt_sha256) {
    findings.push({
      code: 'hash_mismatch',
      message: `the payload hashes to ${computed}, receipt_sha256 is ${receipt_sha256}`,
    });
  }
  if (payload.org_seq !== seq || leafIndex !== seq) {
    findings.push({
      code: 'field_mismatch',
      message: `org_seq ${seq}, payload.org_seq ${JSON.stringify(payload.org_seq)} and leaf_index ${String(leafIndex)} must agree`,
    });
  }
  const expectedId = receiptId(
    options.receiptPrefix ?? DEFAULT_RECEIPT_PREFIX,
    seq,
    receipt_sha256,
  );
  if (receipt_id !== expectedId) {
    findings.push({ code: 'field_mismatch', message: `receipt_id should be ${expectedId}` });
  }
  return findings;
}
