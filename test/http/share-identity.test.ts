import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshSchemaUrl } from '../helpers/postgres.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, mint, newProject, sharePath, type MintedReceipt } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { orgWithRoles } from '../helpers/tribunal.js';
import type { SignedIn } from '../helpers/auth.js';

interface AuditEntry {
  payload: {
    actor: { kind: string; id: string | null };
    event: { type: string; before?: unknown; after?: unknown };
  };
}

/** How an organization's shared receipts show people (docs/share.md, "Names"). */
describe.each(engines)('the share_identity setting on %s', (engine) => {
  let server: TestServer;
  let api: Api;
  let owner: SignedIn;
  let member: SignedIn;
  let apiKey: string;
  let receipt: MintedReceipt;
  let dir: string;
  let pdfCount = 0;

  const ownerEmail = 'ident-owner@example.com';
  /**
   * An organization made at sign-up is named after its founder's e-mail and the page shows the
   * organization's name as it is (docs/share.md): the checks below look at everything else.
   */
  const withoutOrgName = (text: string) =>
    text
      .replaceAll(`${ownerEmail}&#39;s organization`, '')
      .replaceAll(`${ownerEmail}'s organization`, '');

  async function page(): Promise<string> {
    const answer = await api('GET', sharePath(receipt.share_url), {
      headers: { accept: 'text/html' },
    });
    expect(answer.status).toBe(200);
    return answer.text;
  }

  async function pdfText(): Promise<string> {
    const answer = await api('GET', sharePath(receipt.pdf_url));
    expect(answer.status).toBe(200);
    const file = join(dir, `${(pdfCount += 1)}.pdf`);
    await writeFile(file, Buffer.from(answer.bytes));
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  }

  async function shareJson(): Promise<string> {
    const answer = await api('GET', sharePath(receipt.share_url));
    expect(answer.status).toBe(200);
    return answer.text;
  }

  async function changes(): Promise<AuditEntry[]> {
    const list = await api<{ entries: AuditEntry[] }>(
      'GET',
      '/org/audit?type=org.share_identity_changed',
      { token: owner.token },
    );
    expect(list.status, list.text).toBe(200);
    return list.body.entries;
  }

  const patch = (token: string, body: unknown) => api('PATCH', '/org', { token, body });

  beforeAll(async () => {
    server = await startTestServer(
      engine === 'postgres' ? { DATABASE_URL: await freshSchemaUrl() } : {},
    );
    ({ api } = await apiClient(server.url));
    ({ owner, member, apiKey } = await orgWithRoles(api, 'ident'));
    const runId = await approvedRun(api, owner.token, await newProject(api, owner.token));
    receipt = await mint(api, owner.token, runId);
    dir = await mkdtemp(join(tmpdir(), 'runledger-share-identity-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes e-mails by default, on the page and in the PDF, keeping the ids', async () => {
    const org = await api<{ share_identity: string }>('GET', '/org', { token: member.token });
    expect(org.body.share_identity).toBe('email');
    expect(await page()).toContain(
      `<strong><bdi>${ownerEmail}</bdi></strong> <span class="muted">(<code>${owner.userId}</code>)`,
    );
    const pdf = await pdfText();
    expect(pdf).toContain(ownerEmail);
    expect(pdf).toContain(owner.userId);
    // The share JSON is the hashed payload alone: it names people by id whatever the setting.
    expect(await shareJson()).not.toContain(ownerEmail);
  });

  it('refuses a member, an API key, a bad value and an unknown field, changing nothing', async () => {
    const byMember = await patch(member.token, { share_identity: 'id' });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ detail: expect.any(String) });
    expect((await patch(apiKey, { share_identity: 'id' })).status).toBe(403);
    const cases: Array<[body: unknown, named: string]> = [
      [{ share_identity: 'name' }, 'share_identity'],
      [{ share_identity: null }, 'share_identity'],
      [{}, 'share_identity'],
      [{ share_identity: 'id', name: 'renamed' }, 'name'],
      [['id'], ''],
    ];
    for (const [body, named] of cases) {
      const bad = await patch(owner.token, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toEqual({ detail: expect.stringContaining(named) });
    }
    const org = await api<{ share_identity: string }>('GET', '/org', { token: owner.token });
    expect(org.body.share_identity).toBe('email');
    expect(await changes()).toEqual([]);
  });

  it('lets the owner switch to ids, audited with before and after, once', async () => {
    const changed = await patch(owner.token, { share_identity: 'id' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: owner.orgId, share_identity: 'id' });
    // Setting the same value again changes nothing and writes no second receipt.
    expect((await patch(owner.token, { share_identity: 'id' })).status).toBe(200);
    const entries = await changes();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.payload).toMatchObject({
      actor: { kind: 'user', id: owner.userId },
      event: {
        type: 'org.share_identity_changed',
        before: { share_identity: 'email' },
        after: { share_identity: 'id' },
      },
    });
    const org = await api<{ share_identity: string }>('GET', '/org', { token: member.token });
    expect(org.body.share_identity).toBe('id');
  });

  it('shows people by id only once the organization publishes ids', async () => {
    const html = await page();
    expect(withoutOrgName(html)).not.toContain(ownerEmail);
    expect(html).toContain(`<code>${owner.userId}</code>`);
    expect(html).toMatch(/<bdi>project<\/bdi> <span class="muted">\(<code>prj_/);
    const pdf = await pdfText();
    expect(withoutOrgName(pdf)).not.toContain(ownerEmail);
    expect(pdf).toContain(owner.userId);
    expect(await shareJson()).not.toContain(ownerEmail);
  });

  it('publishes e-mails again when the owner switches back', async () => {
    expect((await patch(owner.token, { share_identity: 'email' })).status).toBe(200);
    expect(await page()).toContain(ownerEmail);
    const events = (await changes()).map((e) => e.payload.event);
    expect(events.at(-1)).toEqual({
      type: 'org.share_identity_changed',
      before: { share_identity: 'id' },
      after: { share_identity: 'email' },
    });
  });
});
