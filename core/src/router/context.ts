import { forbidden, notFound } from '../errors.js';
import type { RouterMemberRecord } from '../ports/router-storage.js';
import type { RouterReceiptInput } from '../ports/receipt-sink.js';
import type { Repositories } from '../ports/storage.js';
import type { RouterReceiptType } from '../schemas/enums.js';
import type { Deps } from '../deps.js';
import { routerId } from './ids.js';
import { receiptOutbox, type ReceiptOutbox } from './outbox.js';
import { memberActive } from './views.js';

/** What every router use case shares: the ports, the config and the receipt outbox. */
export interface RouterContext extends Deps {
  outbox: ReceiptOutbox;
  /** A receipt input stamped `at` with a fresh `rr_` id. */
  receipt(
    type: RouterReceiptType,
    at: string,
    subject: RouterReceiptInput['subject'],
    amount?: string,
  ): RouterReceiptInput;
}

export function routerContext(deps: Deps): RouterContext {
  return {
    ...deps,
    outbox: receiptOutbox(deps.storage, deps.receiptSink),
    receipt(type, at, subject, amount) {
      const input: RouterReceiptInput = {
        receipt_id: routerId('rr', deps.random),
        type,
        created_at: at,
        subject,
      };
      if (amount !== undefined) {
        input.amount = amount;
        input.currency = 'USD';
      }
      return input;
    },
  };
}

export async function memberOrThrow(
  tx: Repositories,
  memberId: string,
): Promise<RouterMemberRecord> {
  const member = await tx.routerMembers.byId(memberId);
  if (member === null) throw notFound('member');
  return member;
}

/** Only active members get dataset access, quotes and jobs (docs/design.md#router). */
export async function activeMember(
  tx: Repositories,
  memberId: string,
  now: Date,
): Promise<RouterMemberRecord> {
  const member = await memberOrThrow(tx, memberId);
  if (!memberActive(member, now)) throw forbidden('the member is not active');
  return member;
}
