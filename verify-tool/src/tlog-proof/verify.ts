import { canonicalJson } from '../canonical/json.js';
import { toHex } from '../hash/hex.js';
import { sha256Hex } from '../hash/sha256.js';
import { HASH_SIZE, leafHash } from '../merkle/hash.js';
import { verifyInclusion } from '../merkle/verify.js';
import { NoteError } from '../note/errors.js';
import type { TrustedKey } from '../note/keyring.js';
import { checkSignedCheckpoint, type Authorship } from '../ledger/signed-checkpoint.js';
import type { WitnessCheck, WitnessPolicy } from '../witness/policy.js';
import { parseTlogProof } from './format.js';

/**
 * A runledger receipt's tlog-proof checked offline: `extra` is the receipt's SHA-256 (the leaf's
 * data), the inclusion proof leads from its leaf at `index` (the receipt's org_seq) to the
 * checkpoint's root, the checkpoint is signed by a trusted key and, with a witness policy,
 * cosigned by enough witnesses. With the share JSON, the receipt shown must be the one proven.
 */
export type TlogProofFindingCode =
  | 'bad_proof'
  | 'bad_checkpoint'
  | 'origin_mismatch'
  | 'root_mismatch'
  | 'signature_invalid'
  | 'witness_quorum'
  | 'inclusion_invalid'
  | 'receipt_mismatch';

export interface TlogProofResult {
  ok: boolean;
  index: number | null;
  receipt_sha256: string | null;
  findings: { code: TlogProofFindingCode; message: string }[];
  checkpoint: { origin: string; tree_size: number; root_hash: string } | null;
  authorship: Authorship;
  witnessed?: WitnessCheck;
}

export interface TlogProofOptions {
  keys?: readonly TrustedKey[];
  witnesses?: WitnessPolicy;
  /** The share JSON of the receipt the proof is about (`{receipt: {...}}` or the receipt itself). */
  share?: unknown;
}

export function verifyTlogProof(text: string, options: TlogProofOptions = {}): TlogProofResult {
  let proof;
  try {
    proof = parseTlogProof(text);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    return unreadable(`the tlog-proof cannot be read: ${error.message}`);
  }
  if (proof.extra === null || proof.extra.length !== HASH_SIZE) {
    return unreadable('the tlog-proof has no extra line holding the receipt hash (32 bytes)');
  }
  const receiptSha256 = toHex(proof.extra);
  const findings: TlogProofResult['findings'] = [];
  const org = orgOfShare(options.share, receiptSha256, proof.index, findings);
  const checked = checkSignedCheckpoint(proof.checkpoint, {
    originSuffix: org === undefined ? '' : `/orgs/${org}`,
    keys: options.keys,
    witnesses: options.witnesses,
  });
  findings.push(...checked.findings);
  const cp = checked.checkpoint;
  if (
    cp !== null &&
    !verifyInclusion(proof.index, cp.size, leafHash(proof.extra), proof.hashes, cp.rootHash)
  ) {
    findings.push({
      code: 'inclusion_invalid',
      message: `the inclusion proof does not lead from receipt ${receiptSha256} at index ${proof.index} to the checkpoint's root`,
    });
  }
  return {
    ok: findings.length === 0,
    index: proof.index,
    receipt_sha256: receiptSha256,
    findings,
    checkpoint: cp && { origin: cp.origin, tree_size: cp.size, root_hash: toHex(cp.rootHash) },
    authorship: checked.authorship,
    ...(checked.witnessed === undefined ? {} : { witnessed: checked.witnessed }),
  };
}

function unreadable(message: string): TlogProofResult {
  return {
    ok: false,
    index: null,
    receipt_sha256: null,
    findings: [{ code: 'bad_proof', message }],
    checkpoint: null,
    authorship: { status: 'failed', message },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The share's organization, after checking its receipt is the one the proof is about. */
function orgOfShare(
  share: unknown,
  receiptSha256: string,
  index: number,
  findings: TlogProofResult['findings'],
): string | undefined {
  if (share === undefined) return undefined;
  const receipt = isObject(share) && isObject(share.receipt) ? share.receipt : share;
  const payload = isObject(receipt) ? receipt.payload : undefined;
  if (!isObject(receipt) || !isObject(payload) || typeof payload.org_id !== 'string') {
    findings.push({ code: 'receipt_mismatch', message: 'the share JSON holds no receipt payload' });
    return undefined;
  }
  const computed = sha256Hex(canonicalJson(payload));
  if (computed !== receiptSha256 || receipt.receipt_sha256 !== receiptSha256) {
    findings.push({
      code: 'receipt_mismatch',
      message: `the shared receipt hashes to ${computed}, the tlog-proof proves ${receiptSha256}`,
    });
  }
  if (payload.org_seq !== index || receipt.org_seq !== index) {
    findings.push({
      code: 'receipt_mismatch',
      message: `the shared receipt's org_seq is ${String(payload.org_seq)}, the tlog-proof's index ${index}`,
    });
  }
  return payload.org_id;
}
