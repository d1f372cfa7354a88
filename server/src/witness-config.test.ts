import { cosignerSigner, formatCosignerVkey } from '@runledger/verify/witness';
import { formatVkey, noteSigner } from '@runledger/verify/note';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadWitnessConfig } from './witness-config.js';

const witness = cosignerSigner('witness.example/w1', new Uint8Array(32).fill(1));
const vkey = formatCosignerVkey(witness.name, witness.publicKey);

describe('WITNESSES and WITNESS_INTERVAL_SECONDS', () => {
  it('defaults to no witness and a 5 s interval', () => {
    expect(loadWitnessConfig({})).toEqual({ witnesses: [], witnessIntervalSeconds: 5 });
  });

  it('reads a JSON array of {url, vkey}', () => {
    const env = {
      WITNESSES: JSON.stringify([{ url: 'https://w1.example', vkey }]),
      WITNESS_INTERVAL_SECONDS: '0.5',
    };
    expect(loadWitnessConfig(env)).toEqual({
      witnesses: [{ url: 'https://w1.example', vkey }],
      witnessIntervalSeconds: 0.5,
    });
  });

  it('refuses to start on anything else, naming the fault', () => {
    const log = noteSigner('runledger.example', new Uint8Array(32).fill(2));
    const bad: [Record<string, string>, RegExp][] = [
      [{ WITNESSES: 'nope' }, /not JSON/],
      [{ WITNESSES: '{}' }, /JSON array/],
      [{ WITNESSES: JSON.stringify([{ url: 'ftp://w', vkey }]) }, /JSON array/],
      [
        {
          WITNESSES: JSON.stringify([
            { url: 'https://w', vkey: formatVkey(log.name, log.publicKey) },
          ]),
        },
        /not a witness key/,
      ],
      [
        {
          WITNESSES: JSON.stringify([
            { url: 'https://a', vkey },
            { url: 'https://b', vkey },
          ]),
        },
        /twice/,
      ],
      [{ WITNESS_INTERVAL_SECONDS: '0' }, /0\.1 to 3600/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadWitnessConfig(env)).toThrow(ConfigError);
      expect(() => loadWitnessConfig(env)).toThrow(message);
    }
  });
});
