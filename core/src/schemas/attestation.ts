import { z } from 'zod';

/**
 * A DSSE envelope (docs/attestations.md): `payload` is the standard base64 of an in-toto Statement
 * v1 (RFC 8785 JSON), signed over PAE(payloadType, payload) with the deployment's Ed25519 key.
 */
export const DsseEnvelope = z.object({
  payloadType: z.literal('application/vnd.in-toto+json'),
  payload: z.string().min(1),
  signatures: z
    .array(
      z.object({
        /** The signed-note key id (8 hex) of the key in /.well-known/runledger-keys.json. */
        keyid: z.string().regex(/^[0-9a-f]{8}$/),
        /** Standard base64 of the 64-byte Ed25519 signature. */
        sig: z.string().min(1),
      }),
    )
    .length(1),
});
export type DsseEnvelope = z.infer<typeof DsseEnvelope>;

/**
 * The same envelope as a Sigstore bundle v0.3 (docs/attestations.md): public-key verification
 * material whose hint is the key id, no transparency-log entry and no timestamp.
 */
export const SigstoreBundle = z.object({
  mediaType: z.literal('application/vnd.dev.sigstore.bundle.v0.3+json'),
  verificationMaterial: z.object({
    publicKey: z.object({ hint: z.string().regex(/^[0-9a-f]{8}$/) }),
    tlogEntries: z.array(z.unknown()).max(0),
    timestampVerificationData: z.object({ rfc3161Timestamps: z.array(z.unknown()).max(0) }),
  }),
  dsseEnvelope: DsseEnvelope,
});
export type SigstoreBundle = z.infer<typeof SigstoreBundle>;
