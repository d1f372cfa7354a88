import { testCheckpointSigner } from '@runledger/core/testing';
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { diskSpaceProbe, signingKeyProbe } from './probes.js';

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

describe('the disk space readiness probe', () => {
  it('passes while the file system has more room than the floor', async () => {
    await expect(diskSpaceProbe(tmpdir(), 1).check()).resolves.toBeUndefined();
  });

  it('fails when the room is under the floor, naming both', async () => {
    await expect(diskSpaceProbe(tmpdir(), Number.MAX_SAFE_INTEGER).check()).rejects.toThrow(
      /bytes free on the data directory's file system, under/,
    );
  });
});
