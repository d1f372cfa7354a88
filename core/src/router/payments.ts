import { conflict } from '../errors.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { PaymentEventRecord } from '../ports/router-storage.js';
import type { PaymentEvent, PaymentOutcome, PaymentReceived } from '../schemas/router.js';
import type { RouterUseCases } from './api.js';
import type { RouterContext } from './context.js';
import { CURRENCY } from './pricing.js';
import { MEMBERSHIP_PRICE } from './membership.js';
import { activateInTx } from './members.js';

/** The event type that pays for a membership; every other type is recorded and ignored. */
export const MEMBERSHIP_PAID = 'membership.paid';

type PaymentUseCases = Pick<RouterUseCases, 'receivePaymentEvent'>;

export function paymentUseCases(ctx: RouterContext): PaymentUseCases {
  const { clock, outbox } = ctx;
  return {
    async receivePaymentEvent(event: PaymentEvent): Promise<PaymentReceived> {
      const now = clock.now();
      // One transaction: the event id is stored together with the activation and its receipt, and
      // the event's lock is taken first, so a redelivery (even one racing the first) waits, finds
      // the id and changes nothing.
      return outbox.write(async (tx, receipts) => {
        await tx.lock(lockKeys.webhook(event.id));
        const seen = await tx.paymentEvents.byId(event.id);
        if (seen !== null) return answer(seen, true);
        let outcome: PaymentOutcome = 'ignored_type';
        let receiptId: string | null = null;
        if (event.type === MEMBERSHIP_PAID) {
          const member =
            event.member_id === undefined ? null : await tx.routerMembers.byId(event.member_id);
          if (member === null) outcome = 'unknown_member';
          else if (event.amount !== MEMBERSHIP_PRICE || event.currency !== CURRENCY) {
            outcome = 'amount_mismatch';
          } else {
            receiptId = (await activateInTx(ctx, tx, receipts, member.member_id, now)).receipt_id;
            outcome = 'activated';
          }
        }
        const record: PaymentEventRecord = {
          event_id: event.id,
          type: event.type,
          member_id: event.member_id ?? null,
          amount: event.amount ?? null,
          currency: event.currency ?? null,
          outcome,
          receipt_id: receiptId,
          received_at: now.toISOString(),
        };
        if (!(await tx.paymentEvents.insert(record))) {
          throw conflict('the payment event arrived twice at once; retry');
        }
        return answer(record, false);
      });
    },
  };
}

function answer(record: PaymentEventRecord, duplicate: boolean): PaymentReceived {
  return {
    received: true,
    event_id: record.event_id,
    duplicate,
    processed: !duplicate && record.outcome === 'activated',
    outcome: record.outcome,
    receipt_id: record.receipt_id,
  };
}
