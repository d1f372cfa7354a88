import {
  cosignatureLine,
  cosignerSigner,
  formatCosignerVkey,
  parseCosignerVkey,
} from '@runledger/verify/witness';
import { formatCheckpoint, noteSigner, signNote } from '@runledger/verify/note';
import { describe, expect, it } from 'vitest';
import type { WitnessReply } from '../ports/witness-client.js';
import { askWitness } from './ask-witness.js';

const log = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const w = cosignerSigner('w.example', new Uint8Array(32).fill(2));
const witness = { url: 'https://w.example', vkey: formatCosignerVkey(w.name, w.publicKey) };
const text = formatCheckpoint({
  origin: 'runledger.example/orgs/org_1',
  size: 10,
  rootHash: new Uint8Array(32).fill(3),
  extensions: [],
});
const note = signNote(text, [log]);

/** A scripted witness (pure unit test): answers in turn, records each request's old size. */
function scripted(replies: WitnessReply[]) {
  const olds: number[] = [];
  return {
    olds,
    client: {
      addCheckpoint: async (_: unknown, body: string) => {
        olds.push(Number(/^old (\d+)\n/.exec(body)![1]));
        return replies.shift()!;
      },
    },
  };
}

const ask = (client: ReturnType<typeof scripted>['client'], position: number | null) =>
  askWitness({
    client,
    witness,
    key: parseCosignerVkey(witness.vkey),
    note,
    size: 10,
    position,
    proofFrom: async () => [new Uint8Array(32)],
  });

const size = (n: number): WitnessReply => ({
  status: 409,
  contentType: 'text/x.tlog.size',
  body: `${n}\n`,
});

describe('asking one witness (C2SP tlog-witness client)', () => {
  it('follows a 409 to the witness size and keeps only a cosignature that verifies', async () => {
    const good = cosignatureLine(text, w, 1_700_000_000);
    const { client, olds } = scripted([
      size(7),
      { status: 200, contentType: 'text/plain', body: good },
    ]);
    const attempt = await ask(client, null);
    expect(olds).toEqual([0, 7]);
    expect(attempt).toMatchObject({ outcome: 'cosigned', position: 10, lines: [good] });
  });

  it('reports a witness ahead of the log without sending it a request it must refuse', async () => {
    const { client, olds } = scripted([size(12)]);
    expect(await ask(client, 3)).toMatchObject({ outcome: 'ahead', position: 12 });
    expect(olds).toEqual([3]);
  });

  it('reports another root at the same size as a conflict, and a 422 as refused', async () => {
    expect((await ask(scripted([size(5)]).client, 5)).outcome).toBe('conflict');
    const refused = await ask(
      scripted([{ status: 422, contentType: null, body: 'no\n' }]).client,
      4,
    );
    expect(refused).toMatchObject({ outcome: 'refused', position: 4 });
  });

  it('refuses a 200 whose cosignature is forged, and reports a network failure', async () => {
    const forged = cosignatureLine(text.replace('10', '11'), w, 1);
    expect(
      (await ask(scripted([{ status: 200, contentType: null, body: forged }]).client, 0)).outcome,
    ).toBe('refused');
    const down = { addCheckpoint: async () => Promise.reject(new Error('ECONNREFUSED')) };
    expect((await ask(down, 0)).outcome).toBe('unreachable');
  });
});
