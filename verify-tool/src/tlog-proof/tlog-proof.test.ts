import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../hash/hex.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { TEST_HOST } from '../testing/ledger.js';
import { testWitness, tlogProofFor } from '../testing/witness.js';
import { parseCosignerVkey } from '../witness/cosigner-key.js';
import { witnessPolicy } from '../witness/policy.js';
import { formatTlogProof, parseTlogProof } from './format.js';
import { verifyTlogProof } from './verify.js';

const SPEC_EXAMPLE = `c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
`;

const log = noteSigner(TEST_HOST, new Uint8Array(32).fill(7));
const keys = [trustVkey(formatVkey(log.name, log.publicKey))];
const w1 = testWitness('w1.example', 1);
const w2 = testWitness('w2.example', 2);
const policy = witnessPolicy(
  [w1, w2].map((w) => parseCosignerVkey(w.vkey)),
  2,
);

const proofFile = (n: number, index: number) => tlogProofFor(n, index, log, [w1.signer, w2.signer]);

describe('C2SP tlog-proof', () => {
  it('parses the specification example', () => {
    const proof = parseTlogProof(SPEC_EXAMPLE);
    expect(proof.index).toBe(73894);
    expect(proof.hashes.map(toHex)[0]).toBe(
      Buffer.from('gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=', 'base64').toString('hex'),
    );
    expect(proof.hashes).toHaveLength(5);
    expect(proof.checkpoint.startsWith('example.com/fancylog\n109482\n')).toBe(true);
    expect(formatTlogProof(proof)).toBe(SPEC_EXAMPLE);
  });

  it('refuses a wrong header, a leading zero index and a short hash', () => {
    expect(() => parseTlogProof(SPEC_EXAMPLE.replace('@v1', '@v2'))).toThrow(/starts with/);
    expect(() => parseTlogProof(SPEC_EXAMPLE.replace('index 73894', 'index 073894'))).toThrow(
      /index/,
    );
    expect(() =>
      parseTlogProof(SPEC_EXAMPLE.replace('AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=', 'AAAA')),
    ).toThrow(/hash/);
  });

  it('verifies a receipt proof with its log key, two witnesses and the share JSON', () => {
    for (const [n, i] of [
      [1, 0],
      [7, 3],
      [64, 63],
      [300, 257],
    ] as const) {
      const { text, share } = proofFile(n, i);
      const result = verifyTlogProof(text, { keys, witnesses: policy, share });
      expect(result).toMatchObject({ ok: true, index: i, findings: [] });
      expect(result.witnessed?.cosigned_by.map((w) => w.name)).toEqual([
        'w1.example',
        'w2.example',
      ]);
    }
  });

  it('rejects another receipt shown beside the proof, and an unknown witness', () => {
    const { text } = proofFile(9, 4);
    const other = proofFile(9, 5).share;
    expect(verifyTlogProof(text, { keys, share: other }).findings.map((f) => f.code)).toContain(
      'receipt_mismatch',
    );
    const stranger = witnessPolicy([parseCosignerVkey(testWitness('w3.example', 3).vkey)], 1);
    expect(
      verifyTlogProof(text, { keys, witnesses: stranger }).findings.map((f) => f.code),
    ).toEqual(['witness_quorum']);
  });

  it('fails on any changed byte of the file', () => {
    const { text } = proofFile(20, 11);
    const bytes = new TextEncoder().encode(text);
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const changed = Uint8Array.from(bytes);
        changed[at] = (changed[at] as number) ^ x;
        const result = verifyTlogProof(new TextDecoder().decode(changed), {
          keys,
          witnesses: policy,
        });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
