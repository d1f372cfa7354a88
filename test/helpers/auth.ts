import type { Api } from './openapi.js';

export interface SignedIn {
  token: string;
  userId: string;
  orgId: string;
  email: string;
}

/** The token of a dev_link (`…/auth/verify?token=…` or `…/auth/accept-invite?token=…`). */
export function tokenOfLink(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** The whole sign-in flow over HTTP: request a link, take dev_link, verify it. */
export async function signIn(api: Api, email: string): Promise<SignedIn> {
  const requested = await api<{ dev_link: string }>('POST', '/auth/request', { body: { email } });
  if (requested.status !== 200)
    throw new Error(`auth/request: ${requested.status} ${requested.text}`);
  const verified = await api<{
    access_token: string;
    user: { id: string; org_id: string; email: string };
  }>('POST', '/auth/verify', { body: { token: tokenOfLink(requested.body.dev_link) } });
  if (verified.status !== 200) throw new Error(`auth/verify: ${verified.status} ${verified.text}`);
  return {
    token: verified.body.access_token,
    userId: verified.body.user.id,
    orgId: verified.body.user.org_id,
    email: verified.body.user.email,
  };
}
