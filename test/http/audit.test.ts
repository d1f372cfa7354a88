import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { captureLog, type CapturedLog } from '../helpers/captured-log.js';
import { engines, freshSchemaUrl } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { AGENT_REPORT } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { grade, orgWithRoles, settledVerdict } from '../helpers/tribunal.js';
import { canonicalJson, receiptHash, receiptId, verifyExportLines } from '@runledger/verify';
import { formatExportLine } from '@runledger/verify/export';
import { VERIFY, buildCli, runNode } from '../cli/run-cli.js';

interface Entry {
  receipt_id: string;
  org_seq: number;
  event_type: string;
  payload: { org_id: string; actor: { kind: string; id: string | null }; event: { type: string } };
}
interface AuditPage {
  entries: Entry[];
  next: string | null;
}

describe.each(engines)('audit receipts over HTTP on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let log: CapturedLog;
  let owner: SignedIn;
  let member: SignedIn;
  let apiKey: string;
  let stranger: SignedIn;
  let dir: string;

  async function all(token: string, query = ''): Promise<Entry[]> {
    const page = await api<AuditPage>('GET', `/org/audit?limit=200${query}`, { token });
    expect(page.status, page.text).toBe(200);
    return page.body.entries;
  }

  beforeAll(async () => {
    await buildCli();
    log = captureLog();
    server = await startTestServer(
      engine === 'postgres' ? { DATABASE_URL: await freshSchemaUrl() } : {},
      { logger: log.logger },
    );
    ({ api } = await apiClient(server.url));
    ({ owner, member, apiKey } = await orgWithRoles(api, 'acme'));
    stranger = await signIn(api, 'stranger@example.com');
    dir = await mkdtemp(join(tmpdir(), 'runledger-audit-http-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the owner the organization’s chain; a member and an API key get 403', async () => {
    const entries = await all(owner.token);
    expect(entries.map((e) => e.event_type)).toEqual([
      'sign_in.succeeded',
      'invite.created',
      'invite.accepted',
      'sign_in.succeeded',
      'api_key.created',
    ]);
    expect(entries.map((e) => e.org_seq)).toEqual([0, 1, 2, 3, 4]);
    for (const path of ['/org/audit', '/org/audit/export']) {
      const byMember = await api('GET', path, { token: member.token });
      expect(byMember.status).toBe(403);
      expect(byMember.body).toEqual({ detail: expect.any(String) });
      const byKey = await api('GET', path, { headers: { 'x-api-key': apiKey } });
      expect(byKey.status).toBe(403);
      expect((await api('GET', path)).status).toBe(401);
    }
  });

  it.each([
    ['after_seq=-1'],
    ['after_seq=abc'],
    ['after_seq=1e3'],
    ['limit=0'],
    ['limit=201'],
    ['type=api_key.stolen'],
    ['colour=red'],
  ])('answers 400 with a detail for ?%s', async (query) => {
    const answer = await api('GET', `/org/audit?${query}`, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: expect.any(String) });
  });

  it('keeps organizations apart: another owner reads, filters and exports only their own chain', async () => {
    const mine = await all(owner.token);
    const theirs = await all(stranger.token);
    expect(theirs.map((e) => e.event_type)).toEqual(['sign_in.succeeded']);
    expect(theirs.every((e) => e.payload.org_id === stranger.orgId)).toBe(true);
    const mineIds = new Set(mine.map((e) => e.receipt_id));
    expect(theirs.some((e) => mineIds.has(e.receipt_id))).toBe(false);
    // Paging past their own head answers an empty page, whatever this organization holds.
    const beyond = await api<AuditPage>('GET', '/org/audit?after_seq=3', { token: stranger.token });
    expect(beyond.body).toEqual({ entries: [], next: null });
    expect(await all(stranger.token, '&type=api_key.created')).toEqual([]);
    const exported = await api('GET', '/org/audit/export', { token: stranger.token });
    const lines = exported.text.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ org_id: stranger.orgId, count: 1, log: 'audit' });
    expect(lines.slice(1).some((l) => l.includes(owner.orgId))).toBe(false);
  });

  it('records a tribunal regrade by the owner with the status it replaced', async () => {
    const verdictId = await grade(api, owner.token, {
      flight_sheet: 'agent-task-report',
      submission: AGENT_REPORT,
      evidence: [{ kind: 'log', label: 'log', content: 'step 1 ok\n' }],
    });
    const settled = await settledVerdict(api, owner.token, verdictId);
    const before = (await all(owner.token)).length;
    const regraded = await api('POST', '/v1/tribunal/regrade', {
      token: owner.token,
      body: { verdict_id: verdictId, reason: 'rule set reviewed' },
    });
    expect(regraded.status).toBe(202);
    const added = (await all(owner.token)).slice(before);
    expect(added.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        actor: { kind: 'user', id: owner.userId },
        event: {
          type: 'tribunal.regraded',
          verdict_id: verdictId,
          reason: 'rule set reviewed',
          before: { status: settled.status },
          after: { status: 'queued' },
        },
      }),
    ]);
    await settledVerdict(api, owner.token, verdictId);
  });

  it('exports NDJSON that runledger-verify checks as it checks a ledger export, and names a changed receipt', async () => {
    const exported = await api('GET', '/org/audit/export', { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const file = join(dir, 'audit.ndjson');
    await writeFile(file, exported.text);
    const ok = await runNode(VERIFY, [file]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('log audit');

    const lines = (await readFile(file, 'utf8')).split('\n');
    const target = lines[2]!;
    const at = target.indexOf('"invite.created"');
    lines[2] = `${target.slice(0, at + 1)}I${target.slice(at + 2)}`;
    const tampered = join(dir, 'tampered.ndjson');
    await writeFile(tampered, lines.join('\n'));
    const bad = await runNode(VERIFY, [tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/audit-000001-/);
  });

  it('serves the audit tree’s signed checkpoint to owners: origin …/orgs/<org>/audit, the export’s size and root', async () => {
    const served = await api<{ checkpoint: string; tree_size: number; root_hash: string }>(
      'GET',
      '/org/audit/checkpoint',
      { token: owner.token },
    );
    expect(served.status).toBe(200);
    const entries = await all(owner.token);
    expect(served.body.tree_size).toBe(entries.length);
    expect(
      served.body.checkpoint.startsWith(
        `runledger.test/orgs/${owner.orgId}/audit\n${entries.length}\n`,
      ),
    ).toBe(true);
    const lines = (await api('GET', '/org/audit/export', { token: owner.token })).text
      .trim()
      .split('\n');
    const verified = await verifyExportLines(lines);
    expect(verified.merkle_root).toBe(served.body.root_hash);
    expect(verified.checkpoint).toMatchObject({
      origin: `runledger.test/orgs/${owner.orgId}/audit`,
      tree_size: entries.length,
    });
    expect((await api('GET', '/org/audit/checkpoint', { token: member.token })).status).toBe(403);
    expect(
      (await api('GET', '/org/audit/checkpoint', { headers: { 'x-api-key': apiKey } })).status,
    ).toBe(403);
  });

  it('exports a signed audit chain: runledger-verify --key proves authorship and catches a re-hashed rewrite', async () => {
    const keysFile = join(dir, 'keys.json');
    await writeFile(keysFile, (await api('GET', '/.well-known/runledger-keys.json')).text);
    const exported = await api('GET', '/org/audit/export', { token: owner.token });
    const file = join(dir, 'signed.ndjson');
    await writeFile(file, exported.text);
    const ok = await runNode(VERIFY, ['--key', keysFile, file]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^AUTHORSHIP: signed by runledger.test \(key [0-9a-f]{8}\)/m);
    expect(ok.stdout).toContain(`checkpoint runledger.test/orgs/${owner.orgId}/audit`);

    // Rewrite receipt 1's event and re-hash the chain from there, keeping the signed checkpoint.
    const [header, ...rest] = exported.text.trimEnd().split('\n');
    let parent = '0'.repeat(64);
    const rewritten = rest.map((l, seq) => {
      const row = JSON.parse(l) as { created_at: string; payload: Record<string, unknown> };
      const payload = { ...row.payload, parent_hash: parent };
      if (seq === 1) Object.assign(payload, { actor: { kind: 'user', id: 'usr_someone_else' } });
      const sha = receiptHash(payload);
      const line = formatExportLine({
        receipt_id: receiptId('audit', seq, sha),
        org_seq: seq,
        parent_hash: parent,
        receipt_sha256: sha,
        created_at: row.created_at,
        payload_text: canonicalJson(payload),
      });
      parent = sha;
      return line;
    });
    const head = { ...(JSON.parse(header!) as Record<string, unknown>), head_sha256: parent };
    const forged = join(dir, 'forged.ndjson');
    await writeFile(forged, [JSON.stringify(head), ...rewritten].join('\n') + '\n');
    const caught = await runNode(VERIFY, ['--key', keysFile, forged]);
    expect(caught.code).toBe(1);
    expect(caught.stdout + caught.stderr).toMatch(/root_mismatch/);
  });

  it('logs failed authentication and refused owner-only actions as security events, without the credential', async () => {
    const before = log.lines().length;
    const forged = `${apiKey.slice(0, -4)}AAAA`;
    expect((await api('GET', '/auth/me', { headers: { 'x-api-key': forged } })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: 'not.a.jwt' })).status).toBe(401);
    expect((await api('GET', '/org/audit', { token: member.token })).status).toBe(403);
    const events = log
      .lines()
      .slice(before)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.event === 'string');
    expect(events.map((e) => [e.event, e.route])).toEqual([
      ['auth.failed', '/auth/me'],
      ['auth.failed', '/auth/me'],
      ['authz.denied', '/org/audit'],
    ]);
    expect(events[2]).toMatchObject({ actor_id: member.userId, level: 40 });
    expect(log.leaking([forged, apiKey, member.token, owner.token])).toEqual([]);
  });

  it('aggregates a burst of 1,000 failed sign-ins into one receipt and keeps answering', async () => {
    // A fresh key, so its first use comes after the burst.
    const created = await api<{ key: string; key_id: string }>('POST', '/org/api-keys', {
      token: owner.token,
      body: { name: 'burst' },
    });
    const key = created.body.key;
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const before = (await all(owner.token)).length;
    const statuses: number[] = [];
    for (let wave = 0; wave < 40; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () =>
          api('GET', '/auth/me', { headers: { 'x-api-key': wrong } }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toHaveLength(1000);
    expect(new Set(statuses)).toEqual(new Set([401]));
    // The service still answers, and nothing was written to the chain during the window.
    const me = await api('GET', '/org', { token: owner.token });
    expect(me.status).toBe(200);
    expect(await all(owner.token)).toHaveLength(before);
    // The key's first use writes the pending count first: two receipts for 1,000 failures.
    expect((await api('GET', '/auth/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    const added = (await all(owner.token)).slice(before);
    expect(added.map((e) => e.payload.event)).toEqual([
      expect.objectContaining({ type: 'sign_in.failed', count: 1000, credential: 'api_key' }),
      expect.objectContaining({ type: 'api_key.first_used', key_id: created.body.key_id }),
    ]);
  });
});
