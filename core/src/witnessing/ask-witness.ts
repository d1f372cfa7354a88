import { base64Encode } from '@runledger/verify/note';
import { verifyCosignatures, type CosignerKey } from '@runledger/verify/witness';
import type { WitnessClient, WitnessEndpoint } from '../ports/witness-client.js';

/**
 * One witness asked to cosign one checkpoint (C2SP tlog-witness), starting from the size it was
 * last seen to cosign. A 409 names the witness's size: the request is made again from there, once
 * or twice. Outcomes: `cosigned` (with its verified signature lines), `ahead` (the witness
 * cosigned a larger tree of this log than the one offered: a server restored from an older
 * database, or a fork), `conflict` (same size, another root), `refused` (any other status, e.g.
 * 422: the history offered does not extend what the witness saw) or `unreachable`.
 */
export type WitnessOutcome = 'cosigned' | 'ahead' | 'conflict' | 'refused' | 'unreachable';

export interface WitnessAttempt {
  outcome: WitnessOutcome;
  /** The witness's size as last learned (its position), when known. */
  position: number | null;
  /** Verified cosignature lines, for `cosigned`. */
  lines: string[];
  detail: string;
}

export interface AskInput {
  client: WitnessClient;
  witness: WitnessEndpoint;
  key: CosignerKey;
  /** The log-signed note (with any cosignatures already gathered). */
  note: string;
  size: number;
  position: number | null;
  /** The consistency proof from `old` to `size` (read from the log's tree). */
  proofFrom(old: number): Promise<Uint8Array[]>;
}

const MAX_ATTEMPTS = 3;

function verifiedLines(note: string, body: string, key: CosignerKey): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('\u2014 '))
    .map((line) => line + '\n')
    .filter((line) => verifyCosignatures(note + line, [key]).valid.length === 1);
}

export async function askWitness(input: AskInput): Promise<WitnessAttempt> {
  let old = input.position ?? 0;
  const at = (outcome: WitnessOutcome, detail: string, lines: string[] = []): WitnessAttempt => ({
    outcome,
    position: outcome === 'cosigned' ? input.size : old,
    lines,
    detail,
  });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (old > input.size)
      return at('ahead', `the witness cosigned ${old} leaves, the log has ${input.size}`);
    const proof = old === 0 || old === input.size ? [] : await input.proofFrom(old);
    const body = `old ${old}\n${proof.map((h) => base64Encode(h) + '\n').join('')}\n${input.note}`;
    let reply;
    try {
      reply = await input.client.addCheckpoint(input.witness, body);
    } catch (error) {
      return at('unreachable', (error as Error).message);
    }
    if (reply.status === 200) {
      const lines = verifiedLines(input.note, reply.body, input.key);
      return lines.length > 0
        ? at('cosigned', 'cosigned', lines)
        : at('refused', 'no valid cosignature in the answer');
    }
    const size = /^(0|[1-9][0-9]*)\n$/.exec(reply.body)?.[1];
    if (reply.status !== 409 || size === undefined)
      return at('refused', `${reply.status}: ${reply.body.slice(0, 200).trim()}`);
    if (Number(size) === old)
      return at('conflict', `the witness holds another tree of ${old} leaves`);
    old = Number(size);
  }
  return at('refused', 'the witness kept answering 409');
}
