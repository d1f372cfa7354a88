import { fromHex, toHex } from '../hash/hex.js';
import { SHA256_HEX } from '../hash/sha256.js';
import { verifyConsistency } from '../merkle/verify.js';
import type { TrustedKey } from '../note/keyring.js';
import type { WitnessPolicy } from '../witness/policy.js';
import {
  checkSignedCheckpoint,
  type Authorship,
  type CheckpointFinding,
} from './signed-checkpoint.js';

/**
 * "NEW extends OLD": nothing rewritten, only appended. The two trees are given as signed
 * checkpoints; the link between them is either the later tree's own root at the earlier size
 * (computed from the later export's receipts) or an RFC 9162 consistency proof
 * (`{first, second, hashes: [hex…]}`, the shape of GET /ledger/proof/consistency).
 */
export interface ConsistencyInput {
  old: { checkpoint: string; fallbackTime?: string };
  new: { checkpoint: string; fallbackTime?: string };
  orgId: string;
  keys?: readonly TrustedKey[];
  /** Witnesses that must have cosigned both checkpoints. */
  witnesses?: WitnessPolicy;
  /** The later tree's root at the earlier size and its full root, computed from its receipts. */
  computed?: { size: number; rootAtOldSize: Uint8Array | null; root: Uint8Array };
  /** Or a consistency proof between the two checkpoints. */
  proof?: unknown;
}

export interface ConsistencyResult {
  ok: boolean;
  old_size: number | null;
  new_size: number | null;
  findings: {
    code: CheckpointFinding['code'] | 'not_extended' | 'bad_proof';
    message: string;
    which?: 'old' | 'new';
  }[];
  authorship: { old: Authorship; new: Authorship };
}

export function verifyExtends(input: ConsistencyInput): ConsistencyResult {
  const suffix = `/orgs/${input.orgId}`;
  const old = checkSignedCheckpoint(input.old.checkpoint, {
    originSuffix: suffix,
    keys: input.keys,
    fallbackTime: input.old.fallbackTime,
    witnesses: input.witnesses,
  });
  const next = checkSignedCheckpoint(input.new.checkpoint, {
    originSuffix: suffix,
    keys: input.keys,
    fallbackTime: input.new.fallbackTime,
    witnesses: input.witnesses,
    ...(input.computed === undefined
      ? {}
      : { size: input.computed.size, root: input.computed.root }),
  });
  const findings: ConsistencyResult['findings'] = [
    ...old.findings.map((f) => ({ ...f, which: 'old' as const })),
    ...next.findings.map((f) => ({ ...f, which: 'new' as const })),
  ];
  const a = old.checkpoint;
  const b = next.checkpoint;
  if (a !== null && b !== null) {
    if (a.size > b.size) {
      findings.push({
        code: 'not_extended',
        message: `the later tree (${b.size}) is smaller than the earlier one (${a.size})`,
      });
    } else if (input.computed !== undefined) {
      const at = input.computed.rootAtOldSize;
      if (at === null || toHex(at) !== toHex(a.rootHash)) {
        findings.push({
          code: 'not_extended',
          message: `the later export's first ${a.size} receipts do not hash to the earlier checkpoint's root: history was rewritten`,
        });
      }
    } else {
      const hashes = proofHashes(input.proof, a.size, b.size);
      if (typeof hashes === 'string') findings.push({ code: 'bad_proof', message: hashes });
      else if (
        !(a.size === 0 ? true : verifyConsistency(a.size, b.size, hashes, a.rootHash, b.rootHash))
      ) {
        findings.push({
          code: 'not_extended',
          message: `the consistency proof from ${a.size} to ${b.size} does not verify: the later tree does not extend the earlier one`,
        });
      }
    }
  }
  return {
    ok: findings.length === 0,
    old_size: a?.size ?? null,
    new_size: b?.size ?? null,
    findings,
    authorship: { old: old.authorship, new: next.authorship },
  };
}

function proofHashes(proof: unknown, first: number, second: number): Uint8Array[] | string {
  const p = proof as { first?: unknown; second?: unknown; hashes?: unknown } | null;
  if (p === null || typeof p !== 'object')
    return 'a consistency proof file is needed when NEW is a checkpoint';
  if (p.first !== first || p.second !== second)
    return `the proof is from ${String(p.first)} to ${String(p.second)}, the checkpoints are ${first} and ${second}`;
  if (
    !Array.isArray(p.hashes) ||
    !p.hashes.every((h) => typeof h === 'string' && SHA256_HEX.test(h))
  )
    return 'proof hashes must be 64-hex strings';
  return p.hashes.map((h: string) => fromHex(h) as Uint8Array);
}
