import type { Runledger } from '@runledger/core';
import { DsseEnvelope, SigstoreBundle } from '@runledger/core/schemas';
import type { Response } from 'express';
import { defineRoute, type Route } from '../http/route.js';
import { RunParams, ShareParams } from './params.js';

const ENVELOPE =
  'A DSSE envelope (payloadType application/vnd.in-toto+json) whose payload is an in-toto Statement v1 ' +
  'with a SLSA Verification Summary (v1) predicate: the receipt and the submission as subjects, the flight ' +
  'sheet version as the policy, the evidence as input attestations, PASSED only for a pass verdict, and the ' +
  'receipt’s place in the organization’s log (signed checkpoint, inclusion proof). Signed with the ' +
  'deployment’s Ed25519 key; keyid is its key_id in /.well-known/runledger-keys.json (docs/attestations.md). ' +
  '409 when the stored receipt no longer verifies.';
const BUNDLE =
  'The same envelope as a Sigstore bundle v0.3: public-key verification material (hint: the key_id), no ' +
  'transparency-log entry and no timestamp, so a Sigstore verifier must require none (docs/attestations.md).';

/** A share link's answers stay out of caches and search engines, like the share view. */
function shareHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/** A receipt as a signed attestation, by its share link (public) or by its run (authenticated). */
export function attestationRoutes({ runledger }: { runledger: Runledger }): Route[] {
  const { attestations } = runledger;
  return [
    defineRoute({
      method: 'get',
      path: '/share/{share_token}/attestation',
      summary: 'A shared receipt as a signed in-toto attestation (SLSA VSA in a DSSE envelope)',
      description: `No credential: the token is the capability, as for the share view. ${ENVELOPE}`,
      tag: 'share',
      auth: 'none',
      params: ShareParams,
      status: 200,
      response: DsseEnvelope,
      errors: [404, 409],
      handler: async ({ params, res }) => {
        shareHeaders(res);
        return attestations.forShare(params.share_token);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/share/{share_token}/attestation/sigstore',
      summary: 'A shared receipt’s attestation as a Sigstore bundle v0.3',
      description: `No credential, as for the share view. ${BUNDLE}`,
      tag: 'share',
      auth: 'none',
      params: ShareParams,
      status: 200,
      response: SigstoreBundle,
      errors: [404, 409],
      handler: async ({ params, res }) => {
        shareHeaders(res);
        return attestations.asSigstoreBundle(await attestations.forShare(params.share_token));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/attestation',
      summary: 'The run’s receipt as a signed in-toto attestation (SLSA VSA in a DSSE envelope)',
      description: `404 for an unknown run or a run without a receipt. ${ENVELOPE}`,
      tag: 'runs',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: DsseEnvelope,
      errors: [404, 409],
      handler: async ({ actor, params }) => attestations.forRun(actor, params.run_id),
    }),
    defineRoute({
      method: 'get',
      path: '/runs/{run_id}/attestation/sigstore',
      summary: 'The run’s receipt attestation as a Sigstore bundle v0.3',
      description: `404 for an unknown run or a run without a receipt. ${BUNDLE}`,
      tag: 'runs',
      auth: 'any',
      params: RunParams,
      status: 200,
      response: SigstoreBundle,
      errors: [404, 409],
      handler: async ({ actor, params }) =>
        attestations.asSigstoreBundle(await attestations.forRun(actor, params.run_id)),
    }),
  ];
}
