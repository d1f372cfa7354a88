import type { Actor } from '../actor.js';
import type { DsseEnvelope, SigstoreBundle } from '../schemas/attestation.js';

/** A receipt as a signed in-toto Statement (SLSA VSA) in a DSSE envelope (docs/attestations.md). */
export interface AttestationUseCases {
  /** No credential: the share token is the capability, as for the share view. */
  forShare(token: string): Promise<DsseEnvelope>;
  /** The receipt of a run of the actor's organization; 404 for an unknown run or one without a receipt. */
  forRun(actor: Actor, runId: string): Promise<DsseEnvelope>;
  /** The same envelope as a Sigstore bundle v0.3 (public-key material, no log entry). */
  asSigstoreBundle(envelope: DsseEnvelope): SigstoreBundle;
}
