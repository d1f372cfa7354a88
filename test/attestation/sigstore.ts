import { createPublicKey } from 'node:crypto';
import { Verifier, toTrustMaterial, type VerifierOptions } from '@sigstore/verify';

export { bundleFromJSON } from '@sigstore/bundle';
export { toSignedEntity } from '@sigstore/verify';

export interface PublishedKey {
  key_id: string;
  public_key: string;
  not_before: string;
  not_after: string | null;
}

/** The SPKI (DER) form of a raw 32-byte Ed25519 key, as a Sigstore trusted key holds it. */
function spki(rawBase64: string): Buffer {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(rawBase64, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return key.export({ format: 'der', type: 'spki' });
}

/**
 * A Sigstore verifier trusting the published keys by key id, with an otherwise empty trusted root;
 * by default it requires no transparency-log entry or timestamp (runledger's bundles carry none).
 */
export function sigstoreVerifier(
  keys: readonly PublishedKey[],
  thresholds: VerifierOptions = { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 },
): Verifier {
  const byHint = Object.fromEntries(
    keys.map((k) => [
      k.key_id,
      {
        rawBytes: spki(k.public_key),
        keyDetails: 'PKIX_ED25519' as const,
        validFor: {
          start: new Date(k.not_before),
          ...(k.not_after === null ? {} : { end: new Date(k.not_after) }),
        },
      },
    ]),
  );
  const root = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
  return new Verifier(toTrustMaterial(root as never, byHint as never), thresholds);
}
