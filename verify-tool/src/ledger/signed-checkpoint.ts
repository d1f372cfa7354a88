import { bytesEqual } from '../merkle/hash.js';
import {
  checkpointTime,
  formatCheckpoint,
  parseCheckpoint,
  timeExtension,
  type Checkpoint,
} from '../note/checkpoint.js';
import { NoteError } from '../note/errors.js';
import { keyIdHex, type NoteSigner } from '../note/keys.js';
import { keysValidAt, type TrustedKey } from '../note/keyring.js';
import { openNote, parseNote, signNote } from '../note/note.js';
import { checkWitnessPolicy, type WitnessCheck, type WitnessPolicy } from '../witness/policy.js';

/**
 * One signed checkpoint checked against what the verifier computed: the tree size and root, the
 * origin, and (when keys are supplied) a signature by a key valid at the checkpoint's time.
 * Used for exports, shared receipts, consistency and router anchors alike.
 */

export type CheckpointFindingCode =
  /** The note or its checkpoint body cannot be read. */
  | 'bad_checkpoint'
  /** The signed size or root differs from the one computed from the data. */
  | 'root_mismatch'
  /** The origin line names another log (another organization, instance or day). */
  | 'origin_mismatch'
  /** No supplied key valid at the checkpoint's time signed it, or a signature does not verify. */
  | 'signature_invalid'
  /** Fewer than the required witnesses cosigned the checkpoint (C2SP tlog-cosignature). */
  | 'witness_quorum';

export interface CheckpointFinding {
  code: CheckpointFindingCode;
  message: string;
}

/** Whether the data is proven to come from the key holder. */
export type Authorship =
  | { status: 'verified'; key_name: string; key_id: string; signed_at: string | null }
  | { status: 'not_checked'; message: string }
  | { status: 'failed'; message: string }
  | { status: 'no_checkpoint'; message: string };

export interface CheckedCheckpoint {
  checkpoint: Checkpoint | null;
  findings: CheckpointFinding[];
  authorship: Authorship;
  /** The witness policy's verdict, when one was given. */
  witnessed?: WitnessCheck;
}

export interface CheckpointExpectation {
  /** The origin must end with this (e.g. `/orgs/<org_id>`). */
  originSuffix: string;
  /** The size and root computed from the data, when the data is at hand. */
  size?: number;
  root?: Uint8Array;
  /** Trusted keys; without them authorship is reported as not checked. */
  keys?: readonly TrustedKey[];
  /** Time to pick keys by when the checkpoint states none (e.g. the export's exported_at). */
  fallbackTime?: string;
  /** Witnesses that must have cosigned the checkpoint; without it cosignatures are not checked. */
  witnesses?: WitnessPolicy;
}

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function checkSignedCheckpoint(
  note: string,
  expect: CheckpointExpectation,
): CheckedCheckpoint {
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(parseNote(note).text);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    const message = `the checkpoint cannot be read: ${error.message}`;
    return {
      checkpoint: null,
      findings: [{ code: 'bad_checkpoint', message }],
      authorship: { status: 'failed', message },
    };
  }
  const findings: CheckpointFinding[] = [];
  if (!checkpoint.origin.endsWith(expect.originSuffix)) {
    findings.push({
      code: 'origin_mismatch',
      message: `the checkpoint's origin ${checkpoint.origin} does not end with ${expect.originSuffix}`,
    });
  }
  if (expect.size !== undefined && checkpoint.size !== expect.size) {
    findings.push({
      code: 'root_mismatch',
      message: `the checkpoint signs a tree of ${checkpoint.size} leaves, the data has ${expect.size}`,
    });
  } else if (expect.root !== undefined && !bytesEqual(checkpoint.rootHash, expect.root)) {
    findings.push({
      code: 'root_mismatch',
      message: `the Merkle root of the data is ${hex(expect.root)}, the checkpoint signs ${hex(checkpoint.rootHash)}`,
    });
  }
  const authorship = authorshipOf(note, checkpoint, expect, findings);
  if (expect.witnesses === undefined) return { checkpoint, findings, authorship };
  const witnessed = checkWitnessPolicy(note, expect.witnesses);
  if (!witnessed.ok) findings.push({ code: 'witness_quorum', message: witnessed.message });
  return { checkpoint, findings, authorship, witnessed };
}

function authorshipOf(
  note: string,
  checkpoint: Checkpoint,
  expect: CheckpointExpectation,
  findings: CheckpointFinding[],
): Authorship {
  if (expect.keys === undefined) {
    return {
      status: 'not_checked',
      message:
        'no key given (--key): authorship was not checked, only the data against the checkpoint it carries',
    };
  }
  const signedAt = checkpointTime(checkpoint) ?? expect.fallbackTime ?? null;
  const valid = keysValidAt(expect.keys, signedAt ?? undefined);
  try {
    const [key] = openNote(note, valid).verified;
    return {
      status: 'verified',
      key_name: key!.name,
      key_id: keyIdHex(key!.keyId),
      signed_at: signedAt,
    };
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    const known =
      valid.length < expect.keys.length
        ? ` (keys valid at ${signedAt ?? 'an unstated time'}: ${valid.length} of ${expect.keys.length})`
        : '';
    const message = `the checkpoint's signature does not verify: ${error.message}${known}`;
    findings.push({ code: 'signature_invalid', message });
    return { status: 'failed', message };
  }
}

/**
 * The signed checkpoint of a tree, as the server writes it into exports and share JSON: origin,
 * size, root and a `time` extension line, signed by the deployment's key.
 */
export function signCheckpoint(
  tree: { origin: string; size: number; rootHash: Uint8Array; time: Date | string },
  signer: NoteSigner,
): string {
  const text = formatCheckpoint({
    origin: tree.origin,
    size: tree.size,
    rootHash: tree.rootHash,
    extensions: [timeExtension(tree.time)],
  });
  return signNote(text, [signer]);
}
