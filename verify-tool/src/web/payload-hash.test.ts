import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatExportLine } from '../export/format.js';
import { sha256HexPure } from '../hash/sha256.js';
import { chainOf } from '../testing/ledger.js';
import { payloadHashes } from './payload-hash.js';

const encode = (text: string) => new TextEncoder().encode(text);
const entries = chainOf(5, 'org_h');

describe('payloadHashes (WebCrypto over the payload bytes)', () => {
  it('gives each export line’s receipt_sha256, as the pure-JS hash of its payload text does', async () => {
    const hashes = await payloadHashes(entries.map((e) => encode(formatExportLine(e))));
    expect(hashes).toEqual(entries.map((e) => e.receipt_sha256));
    expect(hashes).toEqual(entries.map((e) => sha256HexPure(e.payload_text)));
  });

  it('hashes the slice the parser takes, whatever the line holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        async (a, b) => {
          const line = `{"x":${JSON.stringify(a)},"payload":${JSON.stringify(b)}}`;
          const [hash] = await payloadHashes([encode(line)]);
          const text = line.slice(line.indexOf(',"payload":') + ',"payload":'.length, -1);
          expect(hash).toBe(sha256HexPure(text));
        },
      ),
    );
  });

  it('leaves other layouts and a browser without WebCrypto to the verifier', async () => {
    const lines = ['{"payload":{}}', '{"a":1,"payload":{}} ', 'not json', ''].map(encode);
    expect(await payloadHashes(lines)).toEqual([undefined, undefined, undefined, undefined]);
    const line = encode(formatExportLine(entries[0]!));
    expect(await payloadHashes([line], null)).toEqual([undefined]);
  });
});
