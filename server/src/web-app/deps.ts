import type { Runledger } from '@runledger/core';
import type { WebhookUseCases } from '@runledger/core/adapter';
import type { BlobStore } from '@runledger/core/ports';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Sessions } from './session.js';

/** What the pages use: the same use cases, limits and blob store as the API routes. */
export interface AppDeps {
  runledger: Runledger;
  sessions: Sessions;
  blobs: BlobStore;
  /** The origin of PUBLIC_BASE_URL, accepted as a form's Origin besides the request's own host. */
  publicOrigin: string;
  limits: { perEmail: RateLimiter; perIp: RateLimiter; verifyPerIp: RateLimiter };
  /** The organization's outbound webhooks (docs/webhooks.md); without them there is no webhooks page. */
  webhooks?: WebhookUseCases;
  /** The largest urlencoded form body (the JSON body limit: a pasted submission). */
  formLimit: number;
}
