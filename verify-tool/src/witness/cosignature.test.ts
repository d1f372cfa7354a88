import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Decode } from '../note/base64.js';
import { NoteError } from '../note/errors.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { signNote } from '../note/note.js';
import { cosignatureLine, cosignedMessage, verifyCosignatures } from './cosignature.js';
import { cosignerSigner, formatCosignerVkey, parseCosignerVkey } from './cosigner-key.js';
import { checkWitnessPolicy, witnessPolicy } from './policy.js';

/*
 * An independent implementation of C2SP tlog-cosignature (Ed25519 cosignature/v1), written from
 * the specification with node:crypto and Buffers only, to cross-check the package's code.
 */
const independent = {
  keyId(name: string, publicKey: Buffer): Buffer {
    return createHash('sha256')
      .update(Buffer.concat([Buffer.from(name + '\n'), Buffer.from([0x04]), publicKey]))
      .digest()
      .subarray(0, 4);
  },
  keys(seed: Buffer) {
    const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
    const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    return { privateKey, publicKey: spki.subarray(spki.length - 32) };
  },
  message: (body: string, t: bigint) => Buffer.from(`cosignature/v1\ntime ${t}\n${body}`),
  line(name: string, seed: Buffer, body: string, t: bigint): string {
    const { privateKey, publicKey } = this.keys(seed);
    const ts = Buffer.alloc(8);
    ts.writeBigUInt64BE(t);
    const sig = sign(null, this.message(body, t), privateKey);
    const blob = Buffer.concat([this.keyId(name, publicKey), ts, sig]);
    return `\u2014 ${name} ${blob.toString('base64')}\n`;
  },
  verify(line: string, name: string, publicKey: Buffer, body: string): boolean {
    const [, lineName, b64] = /^\u2014 (\S+) (\S+)\n$/.exec(line) ?? [];
    const blob = Buffer.from(b64 ?? '', 'base64');
    if (lineName !== name || !blob.subarray(0, 4).equals(this.keyId(name, publicKey))) return false;
    const t = blob.readBigUInt64BE(4);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    return verify(null, this.message(body, t), key, blob.subarray(12));
  },
};

const log = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const body =
  'runledger.example/orgs/org_1\n3\n' + 'A'.repeat(43) + '=\ntime 2026-01-01T00:00:00.000Z\n';
const logNote = signNote(body, [log]);
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('cosignature/v1 (C2SP tlog-cosignature)', () => {
  it('builds the signed message of the specification example', () => {
    const text =
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    expect(new TextDecoder().decode(cosignedMessage(text, 1679315147))).toBe(
      'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
  });

  it('reads the timestamp of the specification example cosignature as 1679315147', () => {
    const blob = base64Decode(
      'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==',
    )!;
    expect(blob.length).toBe(4 + 8 + 64);
    expect(Buffer.from(blob).readBigUInt64BE(4)).toBe(1679315147n);
  });

  it('signs exactly as the independent implementation and each verifies the other', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 2 ** 40 }), (seed, t) => {
        const w = cosignerSigner('witness.example/w1', seed);
        const ours = cosignatureLine(body, w, t);
        const theirs = independent.line(w.name, Buffer.from(seed), body, BigInt(t));
        expect(ours).toBe(theirs);
        expect(independent.verify(ours, w.name, Buffer.from(w.publicKey), body)).toBe(true);
        const valid = verifyCosignatures(logNote + theirs, [w]).valid;
        expect(valid).toEqual([{ name: w.name, keyId: w.keyId, timestamp: t }]);
      }),
      { numRuns: 30 },
    );
  });

  it('finds any changed byte of the checkpoint body or of the cosignature', () => {
    const w = cosignerSigner('witness.example/w1', new Uint8Array(32).fill(9));
    const note = logNote + cosignatureLine(body, w, 1_700_000_000);
    fc.assert(
      fc.property(fc.nat(note.length - 1), fc.integer({ min: 1, max: 127 }), (at, delta) => {
        const code = note.charCodeAt(at);
        if (code > 127 || note[at] === '\n') return;
        const changed =
          note.slice(0, at) + String.fromCharCode((code + delta) % 128 || 1) + note.slice(at + 1);
        if (changed === note) return;
        let valid: unknown[] = [];
        try {
          valid = verifyCosignatures(changed, [w]).valid;
        } catch (error) {
          expect(error).toBeInstanceOf(NoteError);
        }
        // Only a change inside the log's own signature line leaves the cosignature intact.
        const logLine = note.indexOf('\u2014 runledger.example ');
        const inLogLine = at > logLine && at < note.indexOf('\n', logLine);
        if (!inLogLine) expect(valid).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('formats and parses witness vkeys with type 0x04 and refuses a log key', () => {
    const w = cosignerSigner('witness.example/w1', new Uint8Array(32).fill(3));
    const vkey = formatCosignerVkey(w.name, w.publicKey);
    const id = independent.keyId(w.name, Buffer.from(w.publicKey)).toString('hex');
    expect(vkey).toBe(
      `${w.name}+${id}+${Buffer.concat([Buffer.from([4]), Buffer.from(w.publicKey)]).toString('base64')}`,
    );
    expect(parseCosignerVkey(vkey)).toEqual({
      name: w.name,
      keyId: w.keyId,
      publicKey: w.publicKey,
    });
    expect(() => parseCosignerVkey(formatVkey(w.name, w.publicKey))).toThrow(/0x04/);
    expect(() => parseCosignerVkey(vkey.replace(id, '00000000'))).toThrow(/key id/);
  });
});

describe('witness policy', () => {
  const [a, b, c] = [1, 2, 3].map((i) =>
    cosignerSigner(`w${i}.example`, new Uint8Array(32).fill(i)),
  );
  const line = (w: typeof a, t = 1_700_000_000) => cosignatureLine(body, w!, t);

  it('counts each trusted witness once and needs the threshold', () => {
    const note = logNote + line(a) + line(a, 5) + line(b);
    expect(checkWitnessPolicy(note, witnessPolicy([a!, b!], 2)).ok).toBe(true);
    expect(
      checkWitnessPolicy(logNote + line(a) + line(a, 5), witnessPolicy([a!, b!], 2)),
    ).toMatchObject({
      ok: false,
      message: '1 of the required 2 witness cosignatures verify',
    });
  });

  it('ignores cosignatures of unknown witnesses and rejects a forged one', () => {
    expect(checkWitnessPolicy(logNote + line(c), witnessPolicy([a!], 1)).ok).toBe(false);
    const forged = line(a).replace(/.{6}==\n$/, 'AAAAAA==\n');
    const check = checkWitnessPolicy(logNote + forged, witnessPolicy([a!], 1));
    expect(check.ok).toBe(false);
    expect(check.message).toContain('do not verify: w1.example');
  });

  it('refuses a threshold of 0 or above the number of witnesses', () => {
    expect(() => witnessPolicy([a!], 0)).toThrow(RangeError);
    expect(() => witnessPolicy([a!, a!], 2)).toThrow(RangeError);
    expect(witnessPolicy([a!, b!]).threshold).toBe(2);
  });
});
