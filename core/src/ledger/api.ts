import type { Actor } from '../actor.js';
import type { LedgerList, LedgerVerifyResult } from '../schemas/ledger.js';
import type { ReceiptsRecent } from '../schemas/run.js';
import type {
  ConsistencyProof,
  InclusionProof,
  KeysDocument,
  SignedCheckpoint,
} from '../schemas/checkpoint.js';

export interface LedgerUseCases {
  /** In org_seq order; `next` is the last org_seq as a string, to pass back as `after_seq`. */
  list(actor: Actor, query: { after_seq?: number; limit?: number }): Promise<LedgerList>;
  /** Streams the chain in short read transactions, up to the head read at the start. */
  verify(actor: Actor): Promise<LedgerVerifyResult>;
  /** NDJSON lines without their newline: the header, then one line per receipt up to the head read at the start. */
  export(actor: Actor): AsyncIterable<string>;
  /** Newest first; `next` is the last org_seq as a string, to pass back as `before_seq`. */
  recent(actor: Actor, query: { before_seq?: number; limit?: number }): Promise<ReceiptsRecent>;
  /** The signed checkpoint of the organization's tree at its current size. */
  checkpoint(actor: Actor): Promise<SignedCheckpoint>;
  /** The audit path of one receipt (not_found for another org's), at `tree_size` (default: current). */
  inclusionProof(
    actor: Actor,
    query: { receipt_id: string; tree_size?: number },
  ): Promise<InclusionProof>;
  /** The proof that tree `second` extends tree `first` (invalid_input unless 1 ≤ first ≤ second ≤ size). */
  consistencyProof(
    actor: Actor,
    query: { first: number; second: number },
  ): Promise<ConsistencyProof>;
  /** The deployment's published checkpoint keys: the key in use, then retired ones. */
  publishedKeys(): KeysDocument;
}
