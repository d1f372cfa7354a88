import type { InclusionProof, SignedCheckpoint } from '../schemas/checkpoint.js';
import type { PublicReceipt, SharedReceipt } from '../schemas/receipt.js';

/** A shared receipt with what a page or PDF shows beside it. */
export interface ShareView {
  receipt: PublicReceipt;
  org_name: string;
  created_at: string;
  share_url: string;
  pdf_url: string;
  /** The org's signed checkpoint and the receipt's audit path (the share use case always sets them). */
  checkpoint?: SignedCheckpoint;
  inclusion_proof?: InclusionProof;
}

export interface ShareUseCases {
  /** No credential: the token is the capability. `verified` is recomputed on every read. */
  get(token: string): Promise<SharedReceipt>;
  view(token: string): Promise<ShareView>;
}
