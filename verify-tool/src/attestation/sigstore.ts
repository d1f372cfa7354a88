import type { DsseEnvelope } from './dsse.js';

/**
 * The envelope as a Sigstore bundle v0.3 with public-key verification material: the same DSSE
 * envelope, `publicKey.hint` naming the key (its key id). It carries no transparency-log entry and
 * no RFC 3161 timestamp, so a Sigstore verifier must be told to require none (docs/attestations.md).
 */
export const SIGSTORE_BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';

export interface SigstoreBundle {
  mediaType: typeof SIGSTORE_BUNDLE_V03;
  verificationMaterial: {
    publicKey: { hint: string };
    tlogEntries: [];
    timestampVerificationData: { rfc3161Timestamps: [] };
  };
  dsseEnvelope: DsseEnvelope;
}

export function sigstoreBundle(envelope: DsseEnvelope): SigstoreBundle {
  return {
    mediaType: SIGSTORE_BUNDLE_V03,
    verificationMaterial: {
      publicKey: { hint: envelope.signatures[0]?.keyid ?? '' },
      tlogEntries: [],
      timestampVerificationData: { rfc3161Timestamps: [] },
    },
    dsseEnvelope: envelope,
  };
}
