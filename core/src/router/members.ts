import type { RouterMemberRecord } from '../ports/router-storage.js';
import type { RouterUseCases } from '../sdk.js';
import { memberOrThrow, type RouterContext } from './context.js';
import { routerId } from './ids.js';
import { MEMBERSHIP_PRICE, membershipExpiry } from './membership.js';
import { memberActive, toMember } from './wire.js';

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
      await storage.transaction((tx) => tx.routerMembers.insert(member));
      return toMember(member, now);
    },

    async getMember(memberId) {
      const now = clock.now();
      return toMember(await storage.transaction((tx) => memberOrThrow(tx, memberId)), now);
    },

    async activateMember(memberId) {
      const now = clock.now();
      const at = now.toISOString();
      return outbox.commit(async (tx, receipts) => {
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
          status: 'active' as const,
          activated_at: at,
          expires_at: expiresAt,
          amount: MEMBERSHIP_PRICE,
          currency: 'USD' as const,
          receipt_id: r.receipt_id,
        };
      });
    },

    async memberStatus(memberId) {
      const now = clock.now();
      const member = await storage.transaction((tx) => memberOrThrow(tx, memberId));
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
