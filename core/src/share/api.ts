import type { InclusionProof, SignedCheckpoint } from '../schemas/checkpoint.js';
import type { PublicReceipt, SharedReceipt } from '../schemas/receipt.js';

/** One finding of the receipt's verification: the verifier's code and its sentence. */
export interface ShareFailure {
  code: string;
  message: string;
}

/** A person named in the receipt: the id the payload holds and, when the user exists, the e-mail. */
export interface SharePerson {
  id: string;
  email: string | null;
}

/** A shared receipt with what a page or PDF shows beside it. */
export interface ShareView {
  receipt: PublicReceipt;
  org_name: string;
  /** The project's name, when the payload names a project of this organization. */
  project_name: string | null;
  /**
   * Who created the run and who approved it; the e-mail only while the person is a member and the
   * organization publishes e-mails (`share_identity`, docs/share.md).
   */
  created_by: SharePerson | null;
  approved_by: SharePerson | null;
  created_at: string;
  share_url: string;
  pdf_url: string;
  /** The deployment's public base URL, for the `/verify` page and the published keys. */
  base_url: string;
  /** When `verified` was computed (the server clock), and every check that failed (empty when verified). */
  verification: { checked_at: string; failures: ShareFailure[] };
  /** The org's signed checkpoint and the receipt's audit path (the share use case always sets them). */
  checkpoint?: SignedCheckpoint;
  inclusion_proof?: InclusionProof;
}

export interface ShareUseCases {
  /** No credential: the token is the capability. `verified` is recomputed on every read. */
  get(token: string): Promise<SharedReceipt>;
  view(token: string): Promise<ShareView>;
}
