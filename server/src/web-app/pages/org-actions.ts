import {
  ApiKeyCreateBody,
  InviteCreateBody,
  MemberRoleBody,
  OrgUpdateBody,
} from '@runledger/core/schemas';
import { withoutRemoteDevLink } from '../../http/loopback.js';
import type { AppDeps } from '../deps.js';
import { fieldsOf, parseFields } from '../form.js';
import type { PageHandler } from '../handlers.js';
import { orgPage } from './org.js';

const param = (params: Record<string, unknown>, name: string) => String(params[name]);

/** The forms of the organization page, each one owner use case (which checks the role again). */
export function orgActions(deps: AppDeps) {
  const { orgs, apiKeys } = deps.runledger;
  return {
    createKey: async (ctx) => {
      const input = parseFields(ApiKeyCreateBody, { name: fieldsOf(ctx.req).name });
      const key = await apiKeys.create(ctx.person, input);
      // Rendered in the answer to the POST (no-store), never put in a URL: the key is shown once.
      return orgPage(deps, { key })(ctx);
    },
    revokeKey: async ({ req, person }) => {
      await apiKeys.revoke(person, param(req.params, 'key_id'));
      return { redirect: '/app/org?done=revoked#keys' };
    },
    invite: async (ctx) => {
      const f = fieldsOf(ctx.req);
      const input = parseFields(InviteCreateBody, { email: f.email, role: f.role });
      const invite = withoutRemoteDevLink(ctx.req, await orgs.createInvite(ctx.person, input));
      return orgPage(deps, { invite })(ctx);
    },
    revokeInvite: async ({ req, person }) => {
      await orgs.revokeInvite(person, param(req.params, 'invite_id'));
      return { redirect: '/app/org?done=revoked#invites' };
    },
    role: async ({ req, person }) => {
      const input = parseFields(MemberRoleBody, { role: fieldsOf(req).role });
      await orgs.updateMemberRole(person, param(req.params, 'user_id'), input.role);
      return { redirect: '/app/org?done=role#members' };
    },
    settings: async ({ req, person }) => {
      const input = parseFields(OrgUpdateBody, { share_identity: fieldsOf(req).share_identity });
      await orgs.update(person, input);
      return { redirect: '/app/org?done=saved' };
    },
  } satisfies Record<string, PageHandler>;
}
