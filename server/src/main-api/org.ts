import type { Runledger } from '@runledger/core';
import {
  InviteCreateBody,
  InviteCreated,
  InviteList,
  Member,
  MemberList,
  MemberRoleBody,
  Org,
  OrgUpdateBody,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { withoutRemoteDevLink } from '../http/loopback.js';
import { defineRoute, type Route } from '../http/route.js';
import { PageQuery, pageOf } from '../http/paging.js';

const Id = z.string().min(1).max(200);
const InviteParams = z.object({ invite_id: Id }).strict();
const MemberParams = z.object({ user_id: Id }).strict();

export function orgRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/org',
      summary: "The caller's organization",
      tag: 'org',
      auth: 'any',
      status: 200,
      response: Org,
      handler: async ({ actor }) => runledger.orgs.get(actor),
    }),
    defineRoute({
      method: 'patch',
      path: '/org',
      summary:
        'Changes how shared receipts show people: by e-mail or by id only (owner only; audited)',
      tag: 'org',
      auth: 'owner',
      body: OrgUpdateBody,
      status: 200,
      response: Org,
      handler: async ({ actor, body }) => runledger.orgs.update(actor, body),
    }),
    defineRoute({
      method: 'get',
      path: '/org/members',
      summary: 'Members of the organization, paged',
      tag: 'org',
      auth: 'any',
      query: PageQuery,
      status: 200,
      response: MemberList,
      handler: async ({ actor, query }) => {
        const page = await runledger.orgs.listMembers(actor, pageOf(query));
        return { members: page.items, next: page.next };
      },
    }),
    ...orgInviteAndMemberRoutes({ runledger }),
  ];
}

/** An owner's invites and the members' roles. */
function orgInviteAndMemberRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/org/invites',
      summary: 'Invites an e-mail address into the organization (owner only)',
      tag: 'org',
      auth: 'owner',
      body: InviteCreateBody,
      status: 201,
      response: InviteCreated,
      errors: [409],
      handler: async ({ actor, body, req }) =>
        withoutRemoteDevLink(req, await runledger.orgs.createInvite(actor, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/org/invites',
      summary: 'Invitations of the organization, paged (owner only)',
      tag: 'org',
      auth: 'owner',
      query: PageQuery,
      status: 200,
      response: InviteList,
      handler: async ({ actor, query }) => {
        const page = await runledger.orgs.listInvites(actor, pageOf(query));
        return { invites: page.items, next: page.next };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/org/invites/{invite_id}',
      summary: 'Revokes an invitation (owner only)',
      tag: 'org',
      auth: 'owner',
      params: InviteParams,
      status: 204,
      response: undefined,
      errors: [404, 409],
      handler: async ({ actor, params }) => runledger.orgs.revokeInvite(actor, params.invite_id),
    }),
    defineRoute({
      method: 'patch',
      path: '/org/members/{user_id}',
      summary: "Changes a member's role (owner only; the last owner cannot be demoted)",
      tag: 'org',
      auth: 'owner',
      params: MemberParams,
      body: MemberRoleBody,
      status: 200,
      response: Member,
      errors: [404, 409],
      handler: async ({ actor, params, body }) =>
        runledger.orgs.updateMemberRole(actor, params.user_id, body.role),
    }),
    defineRoute({
      method: 'delete',
      path: '/org/members/{user_id}',
      summary: 'Removes a member (owner only; the last owner cannot be removed)',
      tag: 'org',
      auth: 'owner',
      params: MemberParams,
      status: 204,
      response: undefined,
      errors: [404, 409],
      handler: async ({ actor, params }) => runledger.orgs.removeMember(actor, params.user_id),
    }),
  ];
}
