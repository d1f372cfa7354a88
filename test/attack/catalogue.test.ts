import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  forgeJwt,
  INTERNAL_KEY,
  RUNNER_TOKEN,
  startAttackWorld,
  WEBHOOK_SECRET,
  webhookSignature,
  type AttackWorld,
} from '../helpers/attack-world.js';
import type { ApiOptions, ApiResponse } from '../helpers/openapi.js';
import { REGISTRATION_KEY } from '../helpers/router.js';
import { AGENT_REPORT, sharePath } from '../helpers/runs.js';

/**
 * The attack and bad-input catalogue against a real server on both listeners. Every case answers its
 * documented status with a `{detail}` body, and every stored row and receipt file is the same after.
 */
interface Case {
  name: string;
  status: number;
  /** The words `detail` must contain, when they are part of the contract. */
  detail?: RegExp;
  send(w: AttackWorld): Promise<ApiResponse<unknown>>;
}

let w: AttackWorld;
const main = (method: string, path: string, options: ApiOptions = {}) =>
  w.main(method, path, options);
const router = (method: string, path: string, options: ApiOptions = {}) =>
  w.router(method, path, options);
const asAda = (method: string, path: string, options: ApiOptions = {}) =>
  w.main(method, path, { token: w.a.owner.token, ...options });
const nowSeconds = () => Math.floor(w.server.clock.now().getTime() / 1000);
const claims = (over: Record<string, unknown> = {}) => ({
  sub: w.a.owner.userId,
  org: w.a.owner.orgId,
  iss: 'runledger',
  aud: 'runledger-api',
  iat: nowSeconds(),
  exp: nowSeconds() + 3600,
  jti: 'j-1',
  ...over,
});
const me = (token: string) => main('GET', '/auth/me', { token });
const HS256 = { alg: 'HS256', typ: 'JWT' };

const jwtCases: Case[] = [
  { name: 'no credential', status: 401, send: () => main('GET', '/auth/me') },
  { name: 'a garbage bearer', status: 401, send: () => me('not-a-jwt') },
  {
    name: 'a JWT signed with another secret',
    status: 401,
    send: () => me(forgeJwt(HS256, claims(), 'x'.repeat(32))),
  },
  {
    name: 'an expired JWT',
    status: 401,
    send: () => me(forgeJwt(HS256, claims({ exp: nowSeconds() - 1 }), w.server.config.jwtSecret)),
  },
  {
    name: 'a JWT for another audience',
    status: 401,
    send: () => me(forgeJwt(HS256, claims({ aud: 'router' }), w.server.config.jwtSecret)),
  },
  {
    name: 'a JWT from another issuer',
    status: 401,
    send: () => me(forgeJwt(HS256, claims({ iss: 'evil' }), w.server.config.jwtSecret)),
  },
  {
    name: 'an alg:none JWT',
    status: 401,
    send: () => me(forgeJwt({ alg: 'none', typ: 'JWT' }, claims(), '')),
  },
  {
    name: 'an HS512 JWT with the right secret (algorithm pinned)',
    status: 401,
    send: () => me(forgeJwt({ alg: 'HS512', typ: 'JWT' }, claims(), w.server.config.jwtSecret)),
  },
  {
    name: 'a JWT whose payload was changed to another organization',
    status: 401,
    send: async () => {
      const [h, , s] = w.a.owner.token.split('.');
      const body = Buffer.from(JSON.stringify(claims({ org: w.b.owner.orgId }))).toString(
        'base64url',
      );
      return me(`${h}.${body}.${s}`);
    },
  },
  {
    name: 'a correctly signed JWT for an unknown user',
    status: 401,
    send: () => me(forgeJwt(HS256, claims({ sub: 'usr_nobody' }), w.server.config.jwtSecret)),
  },
  {
    name: "a correctly signed JWT naming Ada in Bob's organization",
    status: 401,
    send: () => me(forgeJwt(HS256, claims({ org: w.b.owner.orgId }), w.server.config.jwtSecret)),
  },
  { name: 'a share token as a bearer', status: 401, send: () => me(w.a.receipt.share_token) },
  { name: 'a revoked API key', status: 401, send: () => me(w.revokedKey) },
  {
    name: 'a revoked API key in X-API-Key',
    status: 401,
    send: () => main('GET', '/auth/me', { headers: { 'x-api-key': w.revokedKey } }),
  },
  { name: 'an unknown API key', status: 401, send: () => me(`rlk_${'a'.repeat(43)}`) },
  {
    name: 'a worker token on the main API',
    status: 401,
    send: () => me(w.workerOne.worker_token),
  },
];

const linkCases: Case[] = [
  {
    name: 'a sign-in link used twice',
    status: 401,
    send: () => main('POST', '/auth/verify', { body: { token: w.usedSignIn } }),
  },
  {
    name: 'an invite token at /auth/verify',
    status: 401,
    send: () => main('POST', '/auth/verify', { body: { token: w.pendingInvite } }),
  },
  {
    name: 'a sign-in token at /auth/accept-invite',
    status: 401,
    send: () => main('POST', '/auth/accept-invite', { body: { token: w.pendingSignIn } }),
  },
  {
    name: 'an invite accepted twice',
    status: 401,
    send: () => main('POST', '/auth/accept-invite', { body: { token: w.usedInvite } }),
  },
  {
    name: 'a revoked invite',
    status: 401,
    send: () => main('POST', '/auth/accept-invite', { body: { token: w.revokedInvite } }),
  },
  {
    name: 'a made-up sign-in token',
    status: 401,
    send: () => main('POST', '/auth/verify', { body: { token: 'A'.repeat(43) } }),
  },
  {
    name: 'a sign-in token of 513 characters',
    status: 400,
    send: () => main('POST', '/auth/verify', { body: { token: 'A'.repeat(513) } }),
  },
  {
    name: 'a sign-in token that is a number',
    status: 400,
    send: () => main('POST', '/auth/verify', { body: { token: 12345 } }),
  },
  {
    name: 'a GET of a sign-in link does not consume it',
    status: 200,
    send: () => main('GET', `/auth/verify?token=${w.pendingSignIn}`),
  },
];

/** Bob's ids, presented by Ada: each answers 404, in the same words as an id that does not exist. */
const crossOrg = (): Array<[string, string, ApiOptions]> => {
  const b = w.b;
  return [
    ['GET', `/projects/${b.projectId}`, {}],
    ['GET', `/runs/${b.mintedRunId}`, {}],
    ['GET', `/runs/${b.draftRunId}/submission`, {}],
    ['POST', `/runs/${b.draftRunId}/submission`, { body: AGENT_REPORT }],
    [
      'POST',
      `/runs/${b.draftRunId}/evidence`,
      { body: { kind: 'note', label: 'x', content: 'y' } },
    ],
    ['GET', `/runs/${b.mintedRunId}/evidence`, {}],
    ['GET', `/runs/${b.mintedRunId}/evidence/${b.evidenceId}/content`, {}],
    ['POST', `/runs/${b.draftRunId}/audit`, {}],
    ['GET', `/runs/${b.mintedRunId}/checks`, {}],
    ['PATCH', `/runs/${b.mintedRunId}/checks/${b.checkId}`, { body: { status: 'pass' } }],
    ['GET', `/runs/${b.mintedRunId}/flags`, {}],
    ['GET', `/runs/${b.mintedRunId}/verdict`, {}],
    ['POST', `/runs/${b.mintedRunId}/approve`, { body: { decision: 'approved' } }],
    ['POST', `/runs/${b.mintedRunId}/receipt`, {}],
    ['GET', `/runs/${b.mintedRunId}/incidents`, {}],
    ['POST', `/runs/${b.mintedRunId}/incidents`, { body: { kind: 'rogue', note: 'n' } }],
    ['DELETE', `/org/api-keys/${b.keyId}`, {}],
    ['DELETE', `/org/invites/${b.inviteId}`, {}],
    ['PATCH', `/org/members/${b.owner.userId}`, { body: { role: 'member' } }],
    ['DELETE', `/org/members/${b.owner.userId}`, {}],
  ];
};
const CROSS_ORG_COUNT = 20;

const crossOrgCases: Case[] = Array.from({ length: CROSS_ORG_COUNT }, (_, i) => ({
  name: `another organization's id #${i + 1}`,
  status: 404,
  send: async () => {
    const [method, path, options] = crossOrg()[i]!;
    const foreign = await asAda(method, path, options);
    // The same answer as an id that never existed: the id's existence does not leak.
    const b = w.b;
    const ids = [b.projectId, b.mintedRunId, b.draftRunId, b.evidenceId, b.checkId, b.keyId];
    let unknownPath = path;
    for (const id of [...ids, b.inviteId, b.owner.userId]) {
      unknownPath = unknownPath.replaceAll(id, `${id.slice(0, -4)}zzzz`);
    }
    const unknown = await asAda(method, unknownPath, options);
    expect(unknown.status, unknownPath).toBe(404);
    expect(foreign.body, path).toEqual(unknown.body);
    return foreign;
  },
}));

const garbledCases: Case[] = [
  ['GET', '/projects/%ZZ'],
  ['GET', '/runs/%E0%A4%A'],
  ['POST', '/runs/%C0%80/receipt'],
  ['GET', `/runs/${'r'.repeat(201)}`],
  ['GET', '/share/%ZZ'],
  ['DELETE', '/org/api-keys/%ZZ'],
  ['GET', '/v1/tribunal/verdicts/%ZZ'],
].map(([method, path]) => ({
  name: `a garbled id: ${method} ${path!.slice(0, 40)}`,
  status: 400,
  send: () => asAda(method!, path!),
}));

const routerIdCases: Case[] = [
  ['GET', '/members/mbr_nope', {}, 404],
  ['POST', '/members/mbr_nope/activate', { body: {} }, 404],
  ['GET', '/members/mbr_nope/status', {}, 404],
  ['GET', '/datasets/dst_nope', {}, 404],
  ['POST', '/datasets/dst_nope/access', { body: { member_id: 'mbr_nope' } }, 404],
  ['GET', '/jobs/job_nope', {}, 404],
  ['POST', '/jobs/job_nope/start', { body: {} }, 404],
  ['POST', '/jobs/job_nope/complete', { body: {} }, 404],
  ['POST', '/jobs/job_nope/cancel', { body: {} }, 404],
  ['GET', '/admin/workers/wkr_nope', {}, 404],
  ['GET', `/members/${'m'.repeat(65)}`, {}, 400],
  ['GET', '/jobs/%ZZ', {}, 400],
  ['POST', '/jobs/%C0%80/cancel', { body: {} }, 400],
  ['GET', '/admin/workers/%E0%A4%A', {}, 400],
].map(([method, path, options, status]) => ({
  name: `router ${method} ${String(path).slice(0, 40)}`,
  status: status as number,
  send: () => router(method as string, path as string, options as ApiOptions),
}));

const ownerOnly = (): Array<[string, string, ApiOptions]> => [
  ['POST', '/org/invites', { body: { email: 'x@example.com', role: 'member' } }],
  ['GET', '/org/invites', {}],
  ['DELETE', `/org/invites/${w.a.inviteId}`, {}],
  ['GET', '/org/api-keys', {}],
  ['POST', '/org/api-keys', { body: { name: 'sneaky' } }],
  ['DELETE', `/org/api-keys/${w.a.keyId}`, {}],
  ['PATCH', `/org/members/${w.a.owner.userId}`, { body: { role: 'member' } }],
  ['DELETE', `/org/members/${w.a.owner.userId}`, {}],
];
const ownerOnlyCases: Case[] = ['member', 'api key'].flatMap((who) =>
  Array.from({ length: 8 }, (_, i) => ({
    name: `an owner-only action by a ${who} #${i + 1}`,
    status: 403,
    send: () => {
      const [method, path, options] = ownerOnly()[i]!;
      const token = who === 'member' ? w.member.token : w.apiKey;
      return main(method, path, { ...options, token });
    },
  })),
);

const json = { 'content-type': 'application/json' };
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const bodyCases: Case[] = [
  ['malformed JSON', '{"name":', 400],
  ['a JSON array', '[{"name":"x"}]', 400],
  ['JSON null', 'null', 400],
  ['a wrongly typed field', '{"name":5}', 400],
  ['an unknown field', '{"name":"x","admin":true}', 400],
  ['a __proto__ key', '{"name":"x","__proto__":{"admin":true}}', 400],
  ['a constructor key', '{"name":"x","constructor":{"prototype":{}}}', 400],
  ['a name of 10,000 characters', JSON.stringify({ name: 'n'.repeat(10_000) }), 400],
  ['a body nested 5,000 deep', `{"name":${deep(5000)}}`, 400],
  ['a body over 1 MiB', JSON.stringify({ name: 'n'.repeat(1_100_000) }), 413],
  ['an empty body', '', 400],
].map(([name, body, status]) => ({
  name: `POST /projects with ${name}`,
  status: status as number,
  send: () => asAda('POST', '/projects', { body: body as string, headers: json }),
}));
bodyCases.push(
  {
    name: 'POST /projects as text/plain',
    status: 415,
    send: () =>
      asAda('POST', '/projects', {
        body: '{"name":"x"}',
        headers: { 'content-type': 'text/plain' },
      }),
  },
  {
    name: 'router POST /jobs with hours as an object',
    status: 400,
    send: () =>
      router('POST', '/jobs', {
        body: { member_id: w.activeMember, type: 'inference', node_class: 'gpu_a_96gb', hours: {} },
      }),
  },
  {
    name: 'router POST /members with a prototype key',
    status: 400,
    send: () =>
      router('POST', '/members', {
        body: '{"email":"p@example.com","name":"P","__proto__":{"x":1}}',
        headers: json,
      }),
  },
  {
    name: 'router POST /compute/quote for an unknown node class',
    status: 400,
    send: () =>
      router('POST', '/compute/quote', {
        body: { member_id: w.activeMember, node_class: 'gpu_z', hours: 1 },
      }),
  },
);

const form = (parts: Array<[string, string | Blob, string?]>) => {
  const data = new FormData();
  for (const [name, value, file] of parts) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, value, file);
  }
  return data;
};
const upload =
  (data: FormData | undefined, headers: Record<string, string> = {}) =>
  () =>
    asAda('POST', `/runs/${w.a.draftRunId}/evidence/upload`, {
      ...(data ? { form: data } : { body: '{}', headers: { ...json, ...headers } }),
    });
const uploadCases: Case[] = [
  { name: 'an upload sent as JSON', status: 415, send: upload(undefined) },
  { name: 'an upload without a file part', status: 400, send: upload(form([['label', 'x']])) },
  {
    name: 'an upload with two file parts',
    status: 400,
    send: upload(
      form([
        ['label', 'x'],
        ['file', new Blob(['a']), 'a.txt'],
        ['file', new Blob(['b']), 'b.txt'],
      ]),
    ),
  },
  {
    name: 'an upload with an unknown part',
    status: 400,
    send: upload(
      form([
        ['label', 'x'],
        ['admin', 'true'],
        ['file', new Blob(['a']), 'a.txt'],
      ]),
    ),
  },
  {
    name: 'an upload over 25 MB',
    status: 413,
    send: upload(
      form([
        ['label', 'x'],
        ['file', new Blob([new Uint8Array(25 * 1024 * 1024 + 1)]), 'big.bin'],
      ]),
    ),
  },
  {
    name: 'an upload to a decided run',
    status: 409,
    send: () =>
      asAda('POST', `/runs/${w.a.mintedRunId}/evidence/upload`, {
        form: form([
          ['label', 'x'],
          ['file', new Blob(['a']), 'a.txt'],
        ]),
      }),
  },
];

const stateCases: Case[] = [
  {
    name: 'minting a receipt for a draft run',
    status: 409,
    send: () => asAda('POST', `/runs/${w.a.draftRunId}/receipt`),
  },
  {
    name: 'approving a draft run',
    status: 409,
    send: () =>
      asAda('POST', `/runs/${w.a.draftRunId}/approve`, { body: { decision: 'approved' } }),
  },
  {
    name: 'auditing a run without a submission',
    status: 409,
    send: () => asAda('POST', `/runs/${w.a.draftRunId}/audit`),
  },
  {
    name: 'a submission to a minted run',
    status: 409,
    send: () => asAda('POST', `/runs/${w.a.mintedRunId}/submission`, { body: AGENT_REPORT }),
  },
  {
    name: 'evidence on a minted run',
    status: 409,
    send: () =>
      asAda('POST', `/runs/${w.a.mintedRunId}/evidence`, {
        body: { kind: 'note', label: 'late', content: 'x' },
      }),
  },
  {
    name: 'approving a minted run again',
    status: 409,
    send: () =>
      asAda('POST', `/runs/${w.a.mintedRunId}/approve`, { body: { decision: 'rejected' } }),
  },
  {
    name: 'the last owner demoting themselves',
    status: 409,
    send: () =>
      main('PATCH', `/org/members/${w.b.owner.userId}`, {
        token: w.b.owner.token,
        body: { role: 'member' },
      }),
  },
  {
    name: 'the last owner removing themselves',
    status: 409,
    send: () => main('DELETE', `/org/members/${w.b.owner.userId}`, { token: w.b.owner.token }),
  },
  {
    name: 'router: starting a leased job',
    status: 409,
    send: () => router('POST', `/jobs/${w.jobOne}/start`, { body: {} }),
  },
  {
    name: 'router: completing a leased job by hand',
    status: 409,
    send: () => router('POST', `/jobs/${w.jobOne}/complete`, { body: {} }),
  },
  {
    name: 'router: canceling a canceled job',
    status: 409,
    send: () => router('POST', `/jobs/${w.jobThree}/cancel`, { body: {} }),
  },
  {
    name: 'router: a job for an inactive member',
    status: 403,
    send: () =>
      router('POST', '/jobs', {
        body: {
          member_id: w.inactiveMember,
          type: 'inference',
          node_class: 'gpu_a_96gb',
          hours: 1,
        },
      }),
  },
];

const worker = (token: string, jobId: string, action: string, body: Record<string, unknown>) =>
  router('POST', `/workers/jobs/${jobId}/${action}`, { token, body });
const leaseCases: Case[] = [
  {
    name: "worker one presenting worker two's live lease token",
    status: 409,
    detail: /stale lease/,
    send: () =>
      worker(w.workerOne.worker_token, w.jobOne, 'accept', { lease_token: w.leaseOne.lease_token }),
  },
  {
    name: "worker one completing with worker two's token",
    status: 409,
    detail: /stale lease/,
    send: () =>
      worker(w.workerOne.worker_token, w.jobOne, 'fail', {
        lease_token: w.leaseOne.lease_token,
        error: 'x',
      }),
  },
  {
    name: 'a lease token of job two on job one (cross-job)',
    status: 409,
    detail: /stale lease/,
    send: () =>
      worker(w.workerOne.worker_token, w.jobOne, 'accept', { lease_token: w.leaseTwo.lease_token }),
  },
  {
    name: 'the token of a canceled lease (stale)',
    status: 409,
    detail: /stale lease/,
    send: () =>
      worker(w.workerOne.worker_token, w.jobThree, 'accept', { lease_token: w.staleLease }),
  },
  {
    name: 'a made-up lease token',
    status: 409,
    detail: /stale lease/,
    send: () => worker(w.workerTwo.worker_token, w.jobOne, 'accept', { lease_token: 'made-up' }),
  },
  {
    name: 'a worker call without a worker token',
    status: 401,
    send: () =>
      router('POST', `/workers/jobs/${w.jobOne}/accept`, {
        body: { lease_token: w.leaseOne.lease_token },
      }),
  },
  {
    name: "a user's JWT as a worker token",
    status: 401,
    send: () =>
      worker(w.a.owner.token, w.jobOne, 'accept', { lease_token: w.leaseOne.lease_token }),
  },
];

const signed = (body: string, t: number, secret = WEBHOOK_SECRET) =>
  main('POST', '/webhooks/payments', {
    body,
    headers: { ...json, 'x-signature': webhookSignature(secret, t, body) },
  });
const paid = (id: string) =>
  JSON.stringify({
    id,
    type: 'membership.paid',
    member_id: 'mbr_nope',
    amount: '100.00',
    currency: 'USD',
  });
const internalCases: Case[] = [
  {
    name: 'a runner claim without X-Runner-Token',
    status: 401,
    send: () => main('POST', '/internal/runner/claim', { body: {} }),
  },
  {
    name: 'a runner claim with a wrong token',
    status: 401,
    send: () =>
      main('POST', '/internal/runner/claim', {
        body: {},
        headers: { 'x-runner-token': `${RUNNER_TOKEN}x` },
      }),
  },
  {
    name: 'dataset staging without X-Internal-Key',
    status: 401,
    send: () => main('POST', '/internal/datasets/dst_nope/stage', { body: { status: 'ready' } }),
  },
  {
    name: 'dataset staging with a wrong key',
    status: 401,
    send: () =>
      main('POST', '/internal/datasets/dst_nope/stage', {
        body: { status: 'ready' },
        headers: { 'x-internal-key': INTERNAL_KEY.slice(1) },
      }),
  },
  {
    name: 'worker registration with a wrong key',
    status: 401,
    send: () =>
      router('POST', '/workers/register', {
        body: { name: 'x', node_class: 'gpu_a_96gb' },
        headers: { 'x-registration-key': `${REGISTRATION_KEY}x` },
      }),
  },
  {
    name: 'worker registration without a key',
    status: 401,
    send: () =>
      router('POST', '/workers/register', { body: { name: 'x', node_class: 'gpu_a_96gb' } }),
  },
  {
    name: 'a webhook without a signature',
    status: 401,
    send: () => main('POST', '/webhooks/payments', { body: paid('evt_1'), headers: json }),
  },
  {
    name: 'a webhook signed with another secret',
    status: 401,
    send: () => signed(paid('evt_2'), nowSeconds(), 'w'.repeat(36)),
  },
  {
    name: 'a webhook signed 301 seconds ago',
    status: 401,
    send: () => signed(paid('evt_3'), nowSeconds() - 301),
  },
  {
    name: 'a webhook signed 301 seconds in the future',
    status: 401,
    send: () => signed(paid('evt_4'), nowSeconds() + 301),
  },
  {
    name: 'a webhook whose body changed after signing',
    status: 401,
    send: () => {
      const t = nowSeconds();
      return main('POST', '/webhooks/payments', {
        body: paid('evt_5').replace('100.00', '1.00'),
        headers: { ...json, 'x-signature': webhookSignature(WEBHOOK_SECRET, t, paid('evt_5')) },
      });
    },
  },
  {
    name: 'a webhook with a malformed signature header',
    status: 401,
    send: () =>
      main('POST', '/webhooks/payments', {
        body: paid('evt_6'),
        headers: { ...json, 'x-signature': 'v1=zz' },
      }),
  },
];

const shareCases: Case[] = [
  {
    name: 'an unknown share token',
    status: 404,
    send: () => main('GET', `/share/${'Z'.repeat(43)}`),
  },
  {
    name: 'a share token with one character changed',
    status: 404,
    send: () => {
      const t = w.a.receipt.share_token;
      return main('GET', `/share/${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`);
    },
  },
  {
    name: 'a share link with a stray %',
    status: 400,
    send: () => main('GET', `${sharePath(w.a.receipt.share_url)}%`),
  },
  {
    name: 'the PDF of an unknown share token',
    status: 404,
    send: () => main('GET', `/share/${'Z'.repeat(43)}/pdf`),
  },
];

/** Cases that move the server clock: last, so the others see live links and leases. */
const expiryCases: Case[] = [
  {
    name: 'a sign-in link after its 10 minutes',
    status: 401,
    send: () => {
      w.server.clock.advance(11 * 60_000);
      return main('POST', '/auth/verify', { body: { token: w.pendingSignIn } });
    },
  },
  {
    name: 'an invite after its 168 hours',
    status: 401,
    send: () => {
      w.server.clock.advance(169 * 3_600_000);
      return main('POST', '/auth/accept-invite', { body: { token: w.pendingInvite } });
    },
  },
  {
    name: 'an expired lease token, not swept yet',
    status: 409,
    detail: /stale lease/,
    send: () =>
      worker(w.workerTwo.worker_token, w.jobOne, 'accept', { lease_token: w.leaseOne.lease_token }),
  },
];

const CATALOGUE: Array<[string, Case[]]> = [
  ['forged and wrong credentials', jwtCases],
  ['magic links and invites', linkCases],
  ['other organizations', crossOrgCases],
  ['garbled ids', garbledCases],
  ['router ids', routerIdCases],
  ['owner-only actions', ownerOnlyCases],
  ['bodies', bodyCases],
  ['uploads', uploadCases],
  ['state machines', stateCases],
  ['lease tokens', leaseCases],
  ['internal credentials and webhooks', internalCases],
  ['share tokens', shareCases],
  ['expiry', expiryCases],
];

describe('the attack and bad-input catalogue', () => {
  beforeAll(async () => {
    w = await startAttackWorld();
  }, 60_000);
  afterAll(() => w?.close());

  it('has at least 80 cases', () => {
    expect(CATALOGUE.flatMap(([, cases]) => cases).length).toBeGreaterThanOrEqual(80);
  });

  for (const [group, cases] of CATALOGUE) {
    describe(group, () => {
      for (const c of cases) {
        it(`${c.name}: ${c.status}, nothing changes`, async () => {
          const before = await w.snapshot();
          const answer = await c.send(w);
          expect(answer.status, answer.text).toBe(c.status);
          if (c.status >= 400) {
            expect(answer.body).toEqual({ detail: expect.any(String) });
            if (c.detail) expect((answer.body as { detail: string }).detail).toMatch(c.detail);
          }
          expect(await w.snapshot()).toEqual(before);
        });
      }
    });
  }

  it('sees a change when there is one: the snapshot is not blind', async () => {
    const before = await w.snapshot();
    const created = await asAda('POST', '/projects', { body: { name: 'control' } });
    expect(created.status).toBe(201);
    expect(await w.snapshot()).not.toEqual(before);
  });

  it('answers an unknown and a known e-mail alike (no enumeration)', async () => {
    const known = await main('POST', '/auth/request', { body: { email: 'ada@example.com' } });
    const unknown = await main('POST', '/auth/request', { body: { email: 'zed@example.com' } });
    const shape = (b: unknown) => Object.keys(b as object).sort();
    expect(known.status).toBe(unknown.status);
    expect(shape(known.body)).toEqual(shape(unknown.body));
  });

  it('accepts a replayed webhook once: the second delivery is a duplicate and changes nothing', async () => {
    const body = paid('evt_replay');
    const t = nowSeconds();
    const first = await signed(body, t);
    expect(first.status).toBe(200);
    const before = await w.snapshot();
    const again = await signed(body, t);
    expect(again.body).toMatchObject({ duplicate: true, processed: false });
    expect(await w.snapshot()).toEqual(before);
  });

  it('logged no token, key, link or password the catalogue used, at any level', () => {
    expect(w.log.lines().length).toBeGreaterThan(100);
    expect(w.log.leaking(w.secrets())).toEqual([]);
  });
});
