import type { PublicReceipt } from '../schemas/receipt.js';

/** A shared receipt with what a page or PDF shows beside it. */
export interface ShareView {
  receipt: PublicReceipt;
  org_name: string;
  created_at: string;
  share_url: string;
  pdf_url: string;
}

export interface ShareUseCases {
  /** No credential: the token is the capability. `verified` is recomputed on every read. */
  get(token: string): Promise<PublicReceipt>;
  view(token: string): Promise<ShareView>;
}
