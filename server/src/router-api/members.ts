import type { Runledger } from '@runledger/core';
import {
  MemberActivateBody,
  MemberActivated,
  MemberCreateBody,
  RouterMember,
  RouterMemberStatus,
} from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { MemberParams } from './params.js';

export function memberRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/members',
      summary: 'Creates a member, inactive until activated',
      tag: 'members',
      auth: 'none',
      body: MemberCreateBody,
      status: 201,
      response: RouterMember,
      handler: async ({ body }) => runledger.router.createMember(body),
    }),
    defineRoute({
      method: 'get',
      path: '/members/{member_id}',
      summary: 'One member; status is computed now, so an expired membership reads inactive',
      tag: 'members',
      auth: 'none',
      params: MemberParams,
      status: 200,
      response: RouterMember,
      errors: [404],
      handler: async ({ params }) => runledger.router.getMember(params.member_id),
    }),
    defineRoute({
      method: 'post',
      path: '/members/{member_id}/activate',
      summary: 'Activates a membership for one year at 100.00 USD',
      description:
        'Writes a `membership` receipt with amount 100.00 USD. Activating an active member extends the term ' +
        'by one year from its current expiry.',
      tag: 'members',
      auth: 'none',
      params: MemberParams,
      body: MemberActivateBody,
      status: 200,
      response: MemberActivated,
      errors: [404],
      handler: async ({ params }) => runledger.router.activateMember(params.member_id),
    }),
    defineRoute({
      method: 'get',
      path: '/members/{member_id}/status',
      summary: 'Whether the member is active now, and until when',
      tag: 'members',
      auth: 'none',
      params: MemberParams,
      status: 200,
      response: RouterMemberStatus,
      errors: [404],
      handler: async ({ params }) => runledger.router.memberStatus(params.member_id),
    }),
  ];
}
