import { createHash, createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { signIn, tokenOfLink, type SignedIn } from './auth.js';
import { captureLog, type CapturedLog } from './captured-log.js';
import { apiClient, type Api } from './openapi.js';
import type { Engine } from './postgres.js';
import { lease, newJob, newMember, newWorker, REGISTRATION_KEY, type Leased } from './router.js';
import { approvedRun, mint, newProject, newRun, type MintedReceipt } from './runs.js';
import { startTestServer, type TestServer } from './server.js';
import { openRawDb, type RawDb } from './sqlite.js';

export const RUNNER_TOKEN = 'runner-token-attack-0123456789abcdef';
export const INTERNAL_KEY = 'internal-key-attack-0123456789abcdef';
export const WEBHOOK_SECRET = 'webhook-secret-attack-0123456789abcd';

/** One organization as the catalogue uses it. */
export interface Org {
  owner: SignedIn;
  projectId: string;
  /** Approved and minted. */
  mintedRunId: string;
  receipt: MintedReceipt;
  /** Created, nothing added. */
  draftRunId: string;
  evidenceId: string;
  checkId: string;
  keyId: string;
  inviteId: string;
}

export interface AttackWorld {
  server: TestServer;
  main: Api;
  router: Api;
  log: CapturedLog;
  db: RawDb;
  a: Org;
  b: Org;
  /** A member (not owner) of org A, and an API key and a revoked key of org A. */
  member: SignedIn;
  apiKey: string;
  revokedKey: string;
  /** Unused tokens, kept for reuse and expiry cases. */
  usedSignIn: string;
  pendingSignIn: string;
  usedInvite: string;
  pendingInvite: string;
  revokedInvite: string;
  activeMember: string;
  inactiveMember: string;
  workerOne: { worker_id: string; worker_token: string };
  workerTwo: { worker_id: string; worker_token: string };
  /** Job one is leased to worker two; job two to worker one; job three was canceled under worker one. */
  jobOne: string;
  leaseOne: Leased;
  jobTwo: string;
  leaseTwo: Leased;
  jobThree: string;
  staleLease: string;
  /** Every secret the world handed out: none may reach the log. */
  secrets(): string[];
  /** Every stored row (volatile "last seen/used" columns left out) and every receipt file, hashed. */
  snapshot(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const VOLATILE = /^last_(used|seen)_at$/;
/** Counters of refused sign-ins: a refused attempt is meant to count (docs/audit.md, "Failed sign-ins"). */
const VOLATILE_TABLES = new Set(['audit_sign_in_failures']);

function expect2xx(what: string, status: number, text: string): void {
  if (status < 200 || status > 299) throw new Error(`${what}: ${status} ${text}`);
}

async function newOrg(main: Api, email: string): Promise<Org> {
  const owner = await signIn(main, email);
  const token = owner.token;
  const projectId = await newProject(main, token);
  const mintedRunId = await approvedRun(main, token, projectId);
  const receipt = await mint(main, token, mintedRunId);
  const draftRunId = await newRun(main, token, projectId);
  const evidence = await main<Array<{ id: string }>>('GET', `/runs/${mintedRunId}/evidence`, {
    token,
  });
  const checks = await main<Array<{ id: string }> | { checks: Array<{ id: string }> }>(
    'GET',
    `/runs/${mintedRunId}/checks`,
    { token },
  );
  const checkList = Array.isArray(checks.body) ? checks.body : checks.body.checks;
  const evidenceList = Array.isArray(evidence.body)
    ? evidence.body
    : (evidence.body as { evidence: Array<{ id: string }> }).evidence;
  const key = await main<{ key_id: string }>('POST', '/org/api-keys', {
    token,
    body: { name: 'ci' },
  });
  expect2xx('key', key.status, key.text);
  const invite = await main<{ id: string }>('POST', '/org/invites', {
    token,
    body: { email: `invitee-of-${email}`, role: 'member' },
  });
  expect2xx('invite', invite.status, invite.text);
  return {
    owner,
    projectId,
    mintedRunId,
    receipt,
    draftRunId,
    evidenceId: evidenceList[0]!.id,
    checkId: checkList[0]!.id,
    keyId: key.body.key_id,
    inviteId: invite.body.id,
  };
}

/** Raw row access is SQLite's: a world on PostgreSQL is for requests only (the fuzzer's). */
const NO_RAW_DB: RawDb = {
  all: () => Promise.reject(new Error('raw rows: this attack world runs on PostgreSQL')),
  run: () => Promise.reject(new Error('raw rows: this attack world runs on PostgreSQL')),
  exec: () => Promise.reject(new Error('raw rows: this attack world runs on PostgreSQL')),
  close: () => Promise.resolve(),
};

/**
 * A real server on both listeners with two organizations, a member, keys, invites, workers and
 * leases, on SQLite unless `engine` says otherwise (then `db` and `snapshot` are not available).
 */
export async function startAttackWorld(engine: Engine = 'sqlite'): Promise<AttackWorld> {
  const log = captureLog();
  const server = await startTestServer(
    {
      WORKER_REGISTRATION_KEY: REGISTRATION_KEY,
      RUNNER_TOKEN,
      INTERNAL_API_KEY: INTERNAL_KEY,
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TRIBUNAL_RUNNER: 'external',
      AUTH_REQUEST_LIMIT_PER_IP: '1000',
      AUTH_VERIFY_LIMIT_PER_IP: '1000',
    },
    { logger: log.logger, engine },
  );
  const { api: main } = await apiClient(server.url);
  const { api: router } = await apiClient(server.routerUrl);
  const handedOut: string[] = [REGISTRATION_KEY, RUNNER_TOKEN, INTERNAL_KEY, WEBHOOK_SECRET];
  const remember = <T extends string>(s: T): T => {
    handedOut.push(s);
    return s;
  };

  const a = await newOrg(main, 'ada@example.com');
  const b = await newOrg(main, 'bob@example.com');
  for (const org of [a, b]) {
    remember(org.owner.token);
    remember(org.receipt.share_token);
  }

  const invite = async (email: string) => {
    const made = await main<{ dev_link: string; id: string }>('POST', '/org/invites', {
      token: a.owner.token,
      body: { email, role: 'member' },
    });
    expect2xx('invite', made.status, made.text);
    remember(made.body.dev_link);
    return { token: remember(tokenOfLink(made.body.dev_link)), id: made.body.id };
  };
  const usedInvite = (await invite('cara@example.com')).token;
  const accepted = await main<{ access_token: string; user: { id: string; org_id: string } }>(
    'POST',
    '/auth/accept-invite',
    { body: { token: usedInvite } },
  );
  expect2xx('accept', accepted.status, accepted.text);
  const member: SignedIn = {
    token: remember(accepted.body.access_token),
    userId: accepted.body.user.id,
    orgId: accepted.body.user.org_id,
    email: 'cara@example.com',
  };
  const pendingInvite = (await invite('dan@example.com')).token;
  const revoked = await invite('eve@example.com');
  expect2xx(
    'revoke invite',
    (await main('DELETE', `/org/invites/${revoked.id}`, { token: a.owner.token })).status,
    '',
  );

  const linkFor = async (email: string) => {
    const requested = await main<{ dev_link: string }>('POST', '/auth/request', {
      body: { email },
    });
    remember(requested.body.dev_link);
    return remember(tokenOfLink(requested.body.dev_link));
  };
  const usedSignIn = await linkFor('ada@example.com');
  const verified = await main<{ access_token: string }>('POST', '/auth/verify', {
    body: { token: usedSignIn },
  });
  expect2xx('verify', verified.status, verified.text);
  remember(verified.body.access_token);
  const pendingSignIn = await linkFor('fay@example.com');

  const newKey = async (name: string) => {
    const made = await main<{ key: string; key_id: string }>('POST', '/org/api-keys', {
      token: a.owner.token,
      body: { name },
    });
    expect2xx('key', made.status, made.text);
    return { key: remember(made.body.key), id: made.body.key_id };
  };
  const apiKey = (await newKey('attack')).key;
  // Its first use is audited once (docs/audit.md): done here, so no attack case is the first use.
  expect2xx('first use', (await main('GET', '/auth/me', { token: apiKey })).status, '');
  const revokedKey = await newKey('revoked');
  expect2xx(
    'revoke key',
    (await main('DELETE', `/org/api-keys/${revokedKey.id}`, { token: a.owner.token })).status,
    '',
  );

  const activeMember = await newMember(router, true, 'member-active@example.com');
  const inactiveMember = await newMember(router, false, 'member-inactive@example.com');
  const workerOne = await newWorker(router, 'gpu_a_96gb', 'one');
  const workerTwo = await newWorker(router, 'gpu_a_96gb', 'two');
  remember(workerOne.worker_token);
  remember(workerTwo.worker_token);
  const jobOne = (await newJob(router, activeMember)).job_id;
  const leaseOne = (await lease(router, workerTwo.worker_token))!;
  const jobTwo = (await newJob(router, activeMember)).job_id;
  const leaseTwo = (await lease(router, workerOne.worker_token))!;
  const jobThree = (await newJob(router, activeMember)).job_id;
  const third = (await lease(router, workerOne.worker_token))!;
  expect2xx('cancel', (await router('POST', `/jobs/${jobThree}/cancel`, { body: {} })).status, '');
  for (const l of [leaseOne, leaseTwo, third]) remember(l.lease_token);

  const db = engine === 'sqlite' ? await openRawDb(server.dataDir) : NO_RAW_DB;
  const tables = (
    engine === 'sqlite'
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
      : []
  )
    .map((t) => t.name)
    // A refused attempt is counted by the rate limits: that change is the limit working, not a leak.
    .filter((name) => name !== 'rate_limit_windows');

  async function snapshot(): Promise<Record<string, string>> {
    if (engine !== 'sqlite') throw new Error('snapshot: this attack world runs on PostgreSQL');
    const state: Record<string, string> = {};
    for (const table of tables.filter((t) => !VOLATILE_TABLES.has(t))) {
      const rows = await db.all(`SELECT * FROM "${table}" ORDER BY rowid`);
      const stable = rows.map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => !VOLATILE.test(column))),
      );
      state[table] = createHash('sha256').update(JSON.stringify(stable)).digest('hex');
    }
    const receiptsDir = join(server.dataDir, 'receipts');
    // The day files are the record; their anchors are derived from them and written behind the
    // appends (a re-signed anchor, or its temp file, may still be on its way when this runs).
    const records = (await readdir(receiptsDir)).filter((n) => !/\.anchor(\.partial)?$/.test(n));
    for (const name of records.sort()) {
      const bytes = await readFile(join(receiptsDir, name));
      state[`receipts/${name}`] = createHash('sha256').update(bytes).digest('hex');
    }
    return state;
  }

  return {
    server,
    main,
    router,
    log,
    db,
    a,
    b,
    member,
    apiKey,
    revokedKey: revokedKey.key,
    usedSignIn,
    pendingSignIn,
    usedInvite,
    pendingInvite,
    revokedInvite: revoked.token,
    activeMember,
    inactiveMember,
    workerOne,
    workerTwo,
    jobOne,
    leaseOne,
    jobTwo,
    leaseTwo,
    jobThree,
    staleLease: third.lease_token,
    secrets: () => [...handedOut],
    snapshot,
    close: async () => {
      await db.close();
      await server.close();
    },
  };
}

/** An HS256 JWT with any header and claims, signed with `secret` (or unsigned for alg none). */
export function forgeJwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  secret: string,
): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${part(header)}.${part(claims)}`;
  if (header.alg === 'none') return `${unsigned}.`;
  const hash = header.alg === 'HS512' ? 'sha512' : 'sha256';
  return `${unsigned}.${createHmac(hash, secret).update(unsigned).digest('base64url')}`;
}

/** The X-Signature header of the payment webhook over these exact bytes at unix time `t`. */
export function webhookSignature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
