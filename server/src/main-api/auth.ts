import type { Runledger, SignIn } from '@runledger/core';
import {
  AcceptInviteBody,
  AuthRequestBody,
  AuthRequestResult,
  AuthToken,
  AuthVerifyBody,
  Principal,
} from '@runledger/core/schemas';
import { z } from 'zod';
import { LinkHelp } from './components.js';
import type { JwtSigner } from '../http/jwt.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { withoutRemoteDevLink } from '../http/loopback.js';
import { defineRoute, type Route } from '../http/route.js';
import { linkHelpPage } from './link-help.js';

export interface AuthRouteDeps {
  runledger: Runledger;
  signer: JwtSigner;
  limits: {
    perEmail: RateLimiter;
    perIp: RateLimiter;
    /** Token guesses (POST /auth/verify and /auth/accept-invite) per client address. */
    verifyPerIp: RateLimiter;
  };
  /** PUBLIC_BASE_URL: the help page's command names the deployment, not a placeholder. */
  publicBaseUrl: string;
}

const TokenQuery = z.object({ token: z.string().max(512).optional() }).strict();

function tokenAnswer(signer: JwtSigner, signIn: SignIn) {
  return {
    access_token: signer.sign({ sub: signIn.user.id, org: signIn.org.id }),
    token_type: 'bearer' as const,
    user: {
      id: signIn.user.id,
      email: signIn.user.email,
      org_id: signIn.org.id,
      org_name: signIn.org.name,
      role: signIn.role,
      kind: 'user' as const,
    },
  };
}

/** GET on an e-mailed link explains what to do instead of consuming the token. */
function linkHelpRoute(
  path: '/auth/verify' | '/auth/accept-invite',
  what: string,
  publicBaseUrl: string,
): Route {
  return defineRoute({
    method: 'get',
    path,
    summary: `Explains how to use a ${what} link (does not consume the token)`,
    description:
      'E-mail scanners prefetch links, so a GET never consumes a token. It answers how to POST the token ' +
      '(JSON by default, a small HTML page for browsers).',
    tag: 'auth',
    auth: 'none',
    query: TokenQuery,
    status: 200,
    response: LinkHelp,
    html: (help) => linkHelpPage(help, publicBaseUrl),
    handler: async ({ query }) => ({
      detail: `To finish, POST the token as JSON to ${path}; opening this link does not use it.`,
      method: 'POST' as const,
      path,
      body: { token: query.token ?? '' },
    }),
  });
}

export function authRoutes({ runledger, signer, limits, publicBaseUrl }: AuthRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/request',
      summary: 'Sends a one-time sign-in link to an e-mail address',
      description:
        'Answers the same for every well-formed address. Without an e-mail provider outside production the link comes back as dev_link. ' +
        'Rate limited per e-mail and per client address (429 with Retry-After).',
      tag: 'auth',
      auth: 'none',
      body: AuthRequestBody,
      status: 200,
      response: AuthRequestResult,
      errors: [429],
      handler: async ({ body, req }) => {
        await limits.perIp.hit(`ip:${req.ip ?? 'unknown'}`);
        await limits.perEmail.hit(`email:${body.email}`);
        return withoutRemoteDevLink(req, await runledger.auth.requestLink(body.email));
      },
    }),
    linkHelpRoute('/auth/verify', 'sign-in', publicBaseUrl),
    defineRoute({
      method: 'post',
      path: '/auth/verify',
      summary: 'Exchanges a sign-in link token (once) for a JWT',
      description: 'Rate limited per client address (429 with Retry-After).',
      tag: 'auth',
      auth: 'none',
      body: AuthVerifyBody,
      status: 200,
      response: AuthToken,
      errors: [401, 429],
      handler: async ({ body, req }) => {
        await limits.verifyPerIp.hit(`ip:${req.ip ?? 'unknown'}`);
        return tokenAnswer(signer, await runledger.auth.verifyLink(body.token));
      },
    }),
    linkHelpRoute('/auth/accept-invite', 'invitation', publicBaseUrl),
    defineRoute({
      method: 'post',
      path: '/auth/accept-invite',
      summary: 'Accepts an invitation (once): joins the inviting organization and returns a JWT',
      description:
        'Rate limited per client address, with POST /auth/verify (429 with Retry-After).',
      tag: 'auth',
      auth: 'none',
      body: AcceptInviteBody,
      status: 200,
      response: AuthToken,
      errors: [401, 409, 429],
      handler: async ({ body, req }) => {
        await limits.verifyPerIp.hit(`ip:${req.ip ?? 'unknown'}`);
        return tokenAnswer(signer, await runledger.auth.acceptInvite(body.token));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      summary: 'The caller: a signed-in person or an API key (kind tells which)',
      tag: 'auth',
      auth: 'any',
      status: 200,
      response: Principal,
      handler: async ({ actor }) => runledger.auth.me(actor),
    }),
  ];
}
