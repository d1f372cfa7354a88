import { testCheckpointSigner } from '@runledger/core/testing';
import { describe, expect, it } from 'vitest';
import { signingKeyProbe } from './probes.js';

describe('the signing key readiness probe', () => {
  it('passes for a key that signs under its published public key', async () => {
    await expect(signingKeyProbe(testCheckpointSigner()).check()).resolves.toBeUndefined();
  });

  it('fails when the signatures do not verify under the published key', async () => {
    const signer = testCheckpointSigner();
    const other = testCheckpointSigner('runledger.test', 9);
    const mismatched = { ...signer, sign: (message: Uint8Array) => other.sign(message) };
    await expect(signingKeyProbe(mismatched).check()).rejects.toThrow(/does not sign/);
  });

  it('fails when the key cannot sign at all', async () => {
    const broken = {
      ...testCheckpointSigner(),
      sign: (): Uint8Array => {
        throw new Error('the key is gone');
      },
    };
    await expect(signingKeyProbe(broken).check()).rejects.toThrow(/the key is gone/);
  });
});
