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
