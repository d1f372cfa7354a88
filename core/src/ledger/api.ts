import type { Actor } from '../actor.js';
import type { LedgerList, LedgerVerifyResult } from '../schemas/ledger.js';
import type { ReceiptsRecent } from '../schemas/run.js';

export interface LedgerUseCases {
  /** In org_seq order; `next` is the last org_seq as a string, to pass back as `after_seq`. */
  list(actor: Actor, query: { after_seq?: number; limit?: number }): Promise<LedgerList>;
  /** Streams the chain in short read transactions, up to the head read at the start. */
  verify(actor: Actor): Promise<LedgerVerifyResult>;
  /** NDJSON lines without their newline: the header, then one line per receipt up to the head read at the start. */
  export(actor: Actor): AsyncIterable<string>;
  /** Newest first; `next` is the last org_seq as a string, to pass back as `before_seq`. */
  recent(actor: Actor, query: { before_seq?: number; limit?: number }): Promise<ReceiptsRecent>;
}
