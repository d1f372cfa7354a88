import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { asDiskFull } from '@runledger/adapters';
import type { CheckpointSigner } from '@runledger/core/ports';
import { base64Encode, checkpointTime, parseCheckpoint } from '@runledger/verify/note';
import { toHex } from '@runledger/verify/hash';

/** The file in STATE_DIR that holds the latest checkpoint signed for each log. */
export const SIGNED_HISTORY_FILE = 'signed-checkpoints.json';

/** The largest checkpoint this deployment has signed for one organization's log. */
export interface SignedHead {
  org_id: string;
  log: string;
  origin: string;
  tree_size: number;
  /** Lowercase hex of the signed root. */
  root_hash: string;
  time: string;
  /** The whole signed note, so fsck can check it with the verifier. */
  note: string;
}

interface HistoryFile {
  version: 1;
  logs: Record<string, SignedHead>;
}

/** `<host>/orgs/<org_id>` (the ledger) or `<host>/orgs/<org_id>/<log>`: router anchors do not match. */
const ORG_ORIGIN = /\/orgs\/([^/]+)(?:\/([^/]+))?$/;

const keyOf = (orgId: string, log: string) => `${orgId}/${log}`;

/**
 * Where the deployment remembers what it has published, out of the database's reach (docs/decisions.md):
 * a JSON file replaced atomically (temp file, fsync, rename) whenever a checkpoint larger than the
 * one recorded for its log is signed, before the signature leaves the signer.
 */
export class SignedHistory {
  readonly #file: string;
  readonly #logs: Map<string, SignedHead>;

  private constructor(file: string, logs: Map<string, SignedHead>) {
    this.#file = file;
    this.#logs = logs;
  }

  /** Reads STATE_DIR's file (none yet: nothing signed); a file that cannot be read is an error. */
  static open(stateDir: string): SignedHistory {
    const file = join(stateDir, SIGNED_HISTORY_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return new SignedHistory(file, new Map());
      throw error;
    }
    const parsed = JSON.parse(text) as HistoryFile;
    if (parsed.version !== 1 || typeof parsed.logs !== 'object') {
      throw new Error(`${file} is not a signed-checkpoint history (version 1)`);
    }
    return new SignedHistory(file, new Map(Object.entries(parsed.logs)));
  }

  heads(): SignedHead[] {
    return [...this.#logs.values()];
  }

  /** Keeps `head` when it is the first or a larger checkpoint of its log; writes the file then. */
  record(head: SignedHead): void {
    const key = keyOf(head.org_id, head.log);
    const known = this.#logs.get(key);
    if (known !== undefined && known.tree_size >= head.tree_size) return;
    this.#logs.set(key, head);
    this.#write();
  }

  /** Drops these logs' records (after an accepted rollback: the database's history goes on). */
  forget(logs: ReadonlyArray<{ org_id: string; log: string }>): void {
    for (const { org_id, log } of logs) this.#logs.delete(keyOf(org_id, log));
    this.#write();
  }

  #write(): void {
    const body: HistoryFile = { version: 1, logs: Object.fromEntries(this.#logs) };
    mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
    const temp = `${this.#file}.partial`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(body, null, 1)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.#file);
  }
}

/** The signed note of `message` (a checkpoint body) with one signature line, as signNote writes it. */
function noteOf(signer: CheckpointSigner, message: Uint8Array, signature: Uint8Array): string {
  const keyId = new Uint8Array(4);
  new DataView(keyId.buffer).setUint32(0, signer.keyId);
  const both = new Uint8Array(4 + signature.length);
  both.set(keyId);
  both.set(signature, 4);
  return `${new TextDecoder().decode(message)}\n— ${signer.name} ${base64Encode(both)}\n`;
}

/**
 * The deployment's signer, recording every organization checkpoint it signs into `history` before
 * handing the signature back: what has been signed is remembered before anyone can have seen it.
 * Other notes (router anchors) pass through. A history that cannot be written fails the signing
 * (a full disk answers 503, like any other write).
 */
export function recordingSigner(
  signer: CheckpointSigner,
  history: SignedHistory,
): CheckpointSigner {
  return {
    name: signer.name,
    keyId: signer.keyId,
    publicKey: signer.publicKey,
    published: signer.published,
    sign(message) {
      const signature = signer.sign(message);
      const text = new TextDecoder().decode(message);
      let checkpoint;
      try {
        checkpoint = parseCheckpoint(text);
      } catch {
        return signature;
      }
      const match = ORG_ORIGIN.exec(checkpoint.origin);
      if (match === null) return signature;
      try {
        history.record({
          org_id: match[1]!,
          log: match[2] ?? 'ledger',
          origin: checkpoint.origin,
          tree_size: checkpoint.size,
          root_hash: toHex(checkpoint.rootHash),
          time: checkpointTime(checkpoint) ?? '',
          note: noteOf(signer, message, signature),
        });
      } catch (error) {
        throw asDiskFull(error);
      }
      return signature;
    },
  };
}
