import { EMPTY_ROOT, bytesEqual } from '@runledger/verify/merkle';
import {
  openNote,
  parseNote,
  NoteError,
  type Checkpoint,
  parseCheckpoint,
} from '@runledger/verify/note';
import { verifyConsistency } from '@runledger/verify';
import { cosignatureLine, type CosignerSigner } from '@runledger/verify/witness';
import { keysFor, type LogRule } from './logs.js';
import { parseAddCheckpoint } from './request.js';
import type { WitnessState } from './state.js';

/**
 * C2SP tlog-witness `add-checkpoint`: checks a log's new checkpoint against the latest one this
 * witness cosigned for its origin and, when it extends it, records it and returns a cosignature.
 * Statuses as the specification gives them: 404 unknown origin, 403 no trusted signature, 400 old
 * size above the checkpoint's (or a malformed request), 409 old size not the recorded one (body: the
 * recorded size, `text/x.tlog.size`) or same size with another root, 422 consistency proof fails.
 */
export interface WitnessAnswer {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

export interface WitnessConfig {
  logs: readonly LogRule[];
  state: WitnessState;
  signer: CosignerSigner;
  /** Seconds since the epoch. */
  now(): number;
}

const TEXT = 'text/plain; charset=utf-8';
const answer = (
  status: WitnessAnswer['status'],
  body: string,
  contentType = TEXT,
): WitnessAnswer => ({
  status,
  contentType,
  body: body.endsWith('\n') ? body : body + '\n',
});

export function addCheckpoint(body: string, config: WitnessConfig): WitnessAnswer {
  const request = parseAddCheckpoint(body);
  if (typeof request === 'string') return answer(400, request);
  let text: string;
  let checkpoint: Checkpoint;
  try {
    text = parseNote(request.note).text;
    checkpoint = parseCheckpoint(text);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    return answer(400, `the checkpoint cannot be read: ${error.message}`);
  }
  const keys = keysFor(config.logs, checkpoint.origin);
  if (keys === null) return answer(404, `unknown log origin ${checkpoint.origin}`);
  try {
    openNote(request.note, keys);
  } catch (error) {
    if (!(error instanceof NoteError)) throw error;
    return answer(403, `the checkpoint is not signed by the log's key: ${error.message}`);
  }
  if (request.oldSize > checkpoint.size)
    return answer(
      400,
      `old size ${request.oldSize} is above the checkpoint's size ${checkpoint.size}`,
    );
  if (request.oldSize === 0 && request.proof.length > 0)
    return answer(400, 'the consistency proof must be empty when the old size is 0');
  return config.state.update(checkpoint.origin, (latest) => {
    const known = latest ?? { size: 0, rootHash: EMPTY_ROOT };
    if (request.oldSize !== known.size)
      return { result: answer(409, `${known.size}\n`, 'text/x.tlog.size') };
    if (request.oldSize === checkpoint.size) {
      if (!bytesEqual(known.rootHash, checkpoint.rootHash))
        return { result: answer(409, `${known.size}\n`, 'text/x.tlog.size') };
    } else if (
      request.oldSize > 0 &&
      !verifyConsistency(
        request.oldSize,
        checkpoint.size,
        request.proof,
        known.rootHash,
        checkpoint.rootHash,
      )
    ) {
      return {
        result: answer(
          422,
          `the consistency proof from ${request.oldSize} to ${checkpoint.size} does not verify`,
        ),
      };
    }
    const line = cosignatureLine(text, config.signer, config.now());
    return {
      store: { size: checkpoint.size, rootHash: checkpoint.rootHash, note: request.note },
      result: answer(200, line),
    };
  });
}
