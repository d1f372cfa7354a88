import type { RouterReceiptInput } from '../ports/receipt-sink.js';
import type { RouterMemberRecord } from '../ports/router-storage.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { WriteTransaction } from '../ports/storage.js';
import type { MemberActivated } from '../schemas/router.js';
import type { RouterUseCases } from './api.js';
import { memberOrThrow, type RouterContext } from './context.js';
import { routerId } from './ids.js';
import { MEMBERSHIP_PRICE, membershipExpiry } from './membership.js';
import { memberActive, toMember } from './views.js';

type MemberUseCases = Pick<
  RouterUseCases,
  'createMember' | 'getMember' | 'activateMember' | 'memberStatus'
>;

export function memberUseCases(ctx: RouterContext): MemberUseCases {
  const { storage, clock, random, outbox } = ctx;
  return {
    async createMember(input) {
      const now = clock.now();
      const member: RouterMemberRecord = {
        member_id: routerId('mbr', random),
        email: input.email.trim().toLowerCase(),
        name: input.name.trim(),
        created_at: now.toISOString(),
        activated_at: null,
        expires_at: null,
      };
      await storage.write((tx) => tx.routerMembers.insert(member));
      return toMember(member, now);
    },

    async getMember(memberId) {
      const now = clock.now();
      return toMember(await storage.read((tx) => memberOrThrow(tx, memberId)), now);
    },

    async activateMember(memberId) {
      const now = clock.now();
      return outbox.write((tx, receipts) => activateInTx(ctx, tx, receipts, memberId, now));
    },

    async memberStatus(memberId) {
      const now = clock.now();
      const member = await storage.read((tx) => memberOrThrow(tx, memberId));
      const active = memberActive(member, now);
      return {
        member_id: member.member_id,
        status: active ? 'active' : 'inactive',
        active,
        expires_at: member.expires_at,
      };
    },
  };
}

/**
 * The one activation path, inside the caller's transaction: the admin route and the payment webhook
 * both come here, so both write the same `membership` receipt (collected into `receipts`).
 */
export async function activateInTx(
  ctx: RouterContext,
  tx: WriteTransaction,
  receipts: RouterReceiptInput[],
  memberId: string,
  now: Date,
): Promise<MemberActivated> {
  const at = now.toISOString();
  // The term is read then extended: two activations at once extend it one after the other.
  await tx.lock(lockKeys.routerMember(memberId));
  const member = await memberOrThrow(tx, memberId);
  // A renewal while still active extends the current term, so a paid year is never shortened.
  const from = memberActive(member, now) ? new Date(member.expires_at!) : now;
  const expiresAt = membershipExpiry(from).toISOString();
  await tx.routerMembers.activate(memberId, at, expiresAt);
  const r = ctx.receipt(
    'membership',
    at,
    { member_id: memberId, expires_at: expiresAt },
    MEMBERSHIP_PRICE,
  );
  receipts.push(r);
  return {
    member_id: memberId,
    status: 'active',
    activated_at: at,
    expires_at: expiresAt,
    amount: MEMBERSHIP_PRICE,
    currency: 'USD',
    receipt_id: r.receipt_id,
  };
}
