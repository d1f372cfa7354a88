import type { Actor } from '../actor.js';
import type { AuditEventType, AuditList } from '../schemas/audit-receipt.js';
import type { SignedCheckpoint } from '../schemas/checkpoint.js';

/** An organization's audit chain, read by its owners only (docs/audit.md). */
export interface AuditUseCases {
  /** In org_seq order; `next` is the last org_seq as a string, to pass back as `after_seq`. */
  list(
    actor: Actor,
    query: { after_seq?: number; limit?: number; type?: AuditEventType },
  ): Promise<AuditList>;
  /**
   * NDJSON lines without their newline, in the ledger export format (`runledger-verify` checks it
   * alike): the header (with `log: "audit"`), then one line per receipt up to the head read at the start.
   */
  export(actor: Actor): AsyncIterable<string>;
  /** The signed checkpoint of the org's `audit` tree (origin `<host>/orgs/<org_id>/audit`) at its current size. */
  checkpoint(actor: Actor): Promise<SignedCheckpoint>;
}
