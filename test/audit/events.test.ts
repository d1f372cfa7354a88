import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AUDIT_LOG,
  SIGN_IN_FAILURE_WINDOW_MS,
  treeRootAt,
  treeSize,
} from '@runledger/core/adapter';
import { RunledgerError, type Actor } from '@runledger/core';
import { toHex } from '@runledger/verify/hash';
import { verifyExportLines } from '@runledger/verify';
import { AuditReceiptPayload, type AuditReceipt } from '@runledger/core/schemas';
import { engines } from '../helpers/postgres.js';
import { tokenOf } from '../identity/setup.js';
import { approvedRun, openRunWorld, signIn, type RunWorld } from '../embedding/world.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RunledgerError ? e.code : String(e)),
  );

const sheet = (version: string) => ({
  slug: 'ops-check',
  name: 'Ops check',
  version,
  lane: 'ops',
  summary: 's',
  pass_threshold: 80,
  fail_threshold: 50,
  audit_checks: [
    {
      key: 'ok',
      label: 'ok',
      category: 'schema',
      kind: 'auto',
      severity: 'high',
      check: { op: 'schema' },
    },
  ],
  required_output_schema: { type: 'object' },
});

describe.each(engines)('audit receipts on %s', (engine) => {
  let world: RunWorld;
  let owner: Extract<Actor, { kind: 'user' }>;

  /** Every audit receipt of the owner's org, in chain order. */
  async function chain(as: Actor = owner): Promise<AuditReceipt[]> {
    const out: AuditReceipt[] = [];
    let after: number | undefined;
    for (;;) {
      const page = await world.rl.audit.list(as, {
        limit: 200,
        ...(after === undefined ? {} : { after_seq: after }),
      });
      out.push(...page.entries);
      if (page.next === null) return out;
      after = Number(page.next);
    }
  }

  /** Runs `action` and returns the audit receipts it added (asserting the chain only grew). */
  async function added(action: () => Promise<unknown>): Promise<AuditReceipt[]> {
    const before = await chain();
    world.clock.advance(1000);
    await action();
    const after = await chain();
    expect(after.slice(0, before.length)).toEqual(before);
    return after.slice(before.length);
  }

  /** The one receipt an action wrote, checked against the documented payload schema. */
  async function onlyReceipt(action: () => Promise<unknown>): Promise<AuditReceipt> {
    const receipts = await added(action);
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!;
    expect(AuditReceiptPayload.parse(receipt.payload)).toEqual(receipt.payload);
    expect(receipt.payload.minted_at).toBe(world.clock.now().toISOString());
    expect(receipt.created_at).toBe(receipt.payload.minted_at);
    expect(receipt.event_type).toBe(receipt.payload.event.type);
    expect(receipt.receipt_id).toMatch(/^audit-\d{6}-[0-9a-f]{8}$/);
    return receipt;
  }

  beforeEach(async () => {
    world = await openRunWorld(engine);
    owner = (await signIn(world.rl, 'owner@example.com')) as typeof owner;
  });
  afterEach(async () => {
    await world.close();
  });

  it('starts a new organization’s chain with its owner’s sign-in', async () => {
    const [first, ...rest] = await chain();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      org_seq: 0,
      parent_hash: '0'.repeat(64),
      event_type: 'sign_in.succeeded',
      payload: {
        v: 1,
        type: 'audit_receipt',
        org_id: owner.orgId,
        org_seq: 0,
        actor: { kind: 'user', id: owner.userId },
        event: {
          type: 'sign_in.succeeded',
          user_id: owner.userId,
          email: 'owner@example.com',
          method: 'magic_link',
        },
      },
    });
  });

  it('records an API key’s creation, first use and revocation, never its secret', async () => {
    let key = '';
    let keyId = '';
    const created = await onlyReceipt(async () => {
      ({ key, key_id: keyId } = await world.rl.apiKeys.create(owner, { name: 'ci' }));
    });
    expect(created.payload.actor).toEqual({ kind: 'user', id: owner.userId });
    expect(created.payload.event).toEqual({
      type: 'api_key.created',
      key_id: keyId,
      name: 'ci',
      prefix: expect.stringMatching(/^rlk_/),
    });
    expect(JSON.stringify(created)).not.toContain(key.slice(-20));

    const firstUse = await onlyReceipt(() => world.rl.auth.authenticateApiKey(key));
    expect(firstUse.payload.actor).toEqual({ kind: 'api_key', id: keyId });
    expect(firstUse.payload.event).toEqual({
      type: 'api_key.first_used',
      key_id: keyId,
      name: 'ci',
      created_by: owner.userId,
    });
    // Later uses are not audited.
    expect(await added(() => world.rl.auth.authenticateApiKey(key))).toEqual([]);

    const revoked = await onlyReceipt(() => world.rl.apiKeys.revoke(owner, keyId));
    expect(revoked.payload.event).toEqual({
      type: 'api_key.revoked',
      key_id: keyId,
      name: 'ci',
      before: { revoked_at: null },
      after: { revoked_at: world.clock.now().toISOString() },
    });
    // Revoking again changes nothing and records nothing.
    expect(await added(() => world.rl.apiKeys.revoke(owner, keyId))).toEqual([]);
  });

  it('records invites created, revoked and accepted (with the accepting sign-in)', async () => {
    let inviteId = '';
    const created = await onlyReceipt(async () => {
      ({ id: inviteId } = await world.rl.orgs.createInvite(owner, {
        email: 'gone@example.com',
        role: 'member',
      }));
    });
    expect(created.payload.event).toEqual({
      type: 'invite.created',
      invite_id: inviteId,
      email: 'gone@example.com',
      role: 'member',
      expires_at: expect.any(String),
    });
    const revoked = await onlyReceipt(() => world.rl.orgs.revokeInvite(owner, inviteId));
    expect(revoked.payload.event).toEqual({
      type: 'invite.revoked',
      invite_id: inviteId,
      email: 'gone@example.com',
      role: 'member',
    });
    expect(await added(() => world.rl.orgs.revokeInvite(owner, inviteId))).toEqual([]);

    const invite = await world.rl.orgs.createInvite(owner, {
      email: 'new@example.com',
      role: 'owner',
    });
    const accepted = await added(() => world.rl.auth.acceptInvite(tokenOf(invite.dev_link)));
    expect(accepted.map((r) => r.payload.event.type)).toEqual([
      'invite.accepted',
      'sign_in.succeeded',
    ]);
    const userId = (accepted[0]!.payload.event as { user_id: string }).user_id;
    expect(accepted[0]!.payload.actor).toEqual({ kind: 'user', id: userId });
    expect(accepted[0]!.payload.event).toEqual({
      type: 'invite.accepted',
      invite_id: invite.id,
      email: 'new@example.com',
      role: 'owner',
      user_id: userId,
    });
    expect(accepted[1]!.payload.event).toEqual({
      type: 'sign_in.succeeded',
      user_id: userId,
      email: 'new@example.com',
      method: 'invite',
    });
  });

  it('records a role change with before and after, and a removal; a no-op or refused change records nothing', async () => {
    await world.rl.orgs.createInvite(owner, { email: 'm@example.com', role: 'member' });
    const member = await signIn(world.rl, 'm@example.com');
    if (member.kind !== 'user') throw new Error('expected a user');
    const changed = await onlyReceipt(() =>
      world.rl.orgs.updateMemberRole(owner, member.userId, 'owner'),
    );
    expect(changed.payload.event).toEqual({
      type: 'member.role_changed',
      user_id: member.userId,
      email: 'm@example.com',
      before: { role: 'member' },
      after: { role: 'owner' },
    });
    expect(
      await added(() => world.rl.orgs.updateMemberRole(owner, member.userId, 'owner')),
    ).toEqual([]);
    const removed = await onlyReceipt(() => world.rl.orgs.removeMember(owner, member.userId));
    expect(removed.payload.event).toEqual({
      type: 'member.removed',
      user_id: member.userId,
      email: 'm@example.com',
      before: { role: 'owner' },
    });
    // The last owner cannot be demoted: the refused change leaves the chain as it was.
    expect(
      await added(async () =>
        expect(await code(world.rl.orgs.updateMemberRole(owner, owner.userId, 'member'))).toBe(
          'conflict',
        ),
      ),
    ).toEqual([]);
  });

  it('records a flight sheet version published, with the version it supersedes', async () => {
    const first = await onlyReceipt(() => world.rl.flightSheets.create(owner, sheet('1.0.0')));
    expect(first.payload.event).toMatchObject({
      type: 'flight_sheet.published',
      slug: 'ops-check',
      version: '1.0.0',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      before: { version: null },
    });
    const second = await onlyReceipt(() => world.rl.flightSheets.create(owner, sheet('1.1.0')));
    expect(second.payload.event).toMatchObject({ version: '1.1.0', before: { version: '1.0.0' } });
    expect(
      await added(async () =>
        expect(await code(world.rl.flightSheets.create(owner, sheet('1.0.5')))).toBe('conflict'),
      ),
    ).toEqual([]);
  });

  it('records the share link of a minted receipt by receipt id, never its token, and an incident opened', async () => {
    const run = await approvedRun(world.rl, owner);
    let receipt = { receipt_id: '', share_token: '' };
    const shared = await onlyReceipt(async () => {
      ({ receipt } = await world.rl.runs.mintReceipt(owner, run.id));
    });
    expect(shared.payload.event).toEqual({
      type: 'share_link.created',
      receipt_id: receipt.receipt_id,
      run_id: run.id,
    });
    expect(JSON.stringify(shared)).not.toContain(receipt.share_token);
    // Minting again answers the same receipt and creates no link.
    expect(await added(() => world.rl.runs.mintReceipt(owner, run.id))).toEqual([]);

    let incidentId = '';
    const opened = await onlyReceipt(async () => {
      ({ id: incidentId } = await world.rl.incidents.file(owner, run.id, {
        kind: 'policy_violation',
        note: 'customer data in the log',
      }));
    });
    expect(opened.payload.event).toEqual({
      type: 'incident.opened',
      incident_id: incidentId,
      run_id: run.id,
      kind: 'policy_violation',
      rule_key: null,
    });
  });

  it('aggregates failed sign-ins of a known key into one receipt per window', async () => {
    const { key } = await world.rl.apiKeys.create(owner, { name: 'ci' });
    const wrong = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    const start = await chain();
    const firstAt = world.clock.now().toISOString();
    for (let i = 0; i < 5; i++) {
      expect(await code(world.rl.auth.authenticateApiKey(wrong))).toBe('unauthenticated');
    }
    const lastAt = world.clock.now().toISOString();
    // Nothing is written while the window is open...
    expect(await chain()).toEqual(start);
    world.clock.advance(SIGN_IN_FAILURE_WINDOW_MS);
    // ...and one receipt once it has ended.
    const [failed, ...more] = (await chain()).slice(start.length);
    expect(more).toEqual([]);
    expect(failed!.payload.actor).toEqual({ kind: 'anonymous', id: null });
    expect(failed!.payload.event).toMatchObject({
      type: 'sign_in.failed',
      count: 5,
      credential: 'api_key',
      first_at: firstAt,
      last_at: lastAt,
    });
    const event = failed!.payload.event as { window_start: string; window_end: string };
    expect(Date.parse(event.window_end) - Date.parse(event.window_start)).toBe(
      SIGN_IN_FAILURE_WINDOW_MS,
    );
  });

  it('writes pending failures before the next audit receipt, so the chain keeps their order', async () => {
    const { key } = await world.rl.apiKeys.create(owner, { name: 'ci' });
    const wrong = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    await code(world.rl.auth.authenticateApiKey(wrong));
    await code(world.rl.auth.authenticateApiKey(wrong));
    const receipts = await added(() => world.rl.auth.authenticateApiKey(key));
    expect(receipts.map((r) => r.payload.event.type)).toEqual([
      'sign_in.failed',
      'api_key.first_used',
    ]);
    expect(receipts[0]!.payload.event).toMatchObject({ count: 2 });
  });

  it('filters by event type and pages by after_seq', async () => {
    for (const name of ['a', 'b', 'c']) await world.rl.apiKeys.create(owner, { name });
    const keys = await world.rl.audit.list(owner, { type: 'api_key.created', limit: 2 });
    expect(keys.entries.map((e) => e.payload.event.type)).toEqual([
      'api_key.created',
      'api_key.created',
    ]);
    expect(keys.next).toBe(String(keys.entries[1]!.org_seq));
    const rest = await world.rl.audit.list(owner, {
      type: 'api_key.created',
      after_seq: Number(keys.next),
    });
    expect(rest.entries.map((e) => (e.payload.event as { name: string }).name)).toEqual(['c']);
    expect(rest.next).toBeNull();
  });

  it('records a share identity change with before and after; a no-op or refused change records nothing', async () => {
    const changed = await onlyReceipt(() => world.rl.orgs.update(owner, { share_identity: 'id' }));
    expect(changed.payload.actor).toEqual({ kind: 'user', id: owner.userId });
    expect(changed.payload.event).toEqual({
      type: 'org.share_identity_changed',
      before: { share_identity: 'email' },
      after: { share_identity: 'id' },
    });
    expect(await added(() => world.rl.orgs.update(owner, { share_identity: 'id' }))).toEqual([]);
    await world.rl.orgs.createInvite(owner, { email: 'm@example.com', role: 'member' });
    const member = await signIn(world.rl, 'm@example.com');
    expect(
      await added(async () =>
        expect(await code(world.rl.orgs.update(member, { share_identity: 'email' }))).toBe(
          'forbidden',
        ),
      ),
    ).toEqual([]);
    expect((await world.rl.orgs.get(owner)).share_identity).toBe('id');
  });

  it('keeps the share identity when its audit receipt cannot be written', async () => {
    await world.tamper('ALTER TABLE audit_receipts RENAME TO audit_receipts_away');
    const failed = await code(world.rl.orgs.update(owner, { share_identity: 'id' }));
    await world.tamper('ALTER TABLE audit_receipts_away RENAME TO audit_receipts');
    expect(failed).not.toBe('resolved');
    expect((await world.rl.orgs.get(owner)).share_identity).toBe('email');
  });

  it('writes nothing when the audit append fails: the change rolls back with it', async () => {
    await world.tamper('ALTER TABLE audit_receipts RENAME TO audit_receipts_away');
    const failed = await world.rl.apiKeys.create(owner, { name: 'ci' }).then(
      () => 'created',
      () => 'failed',
    );
    await world.tamper('ALTER TABLE audit_receipts_away RENAME TO audit_receipts');
    expect(failed).toBe('failed');
    expect((await world.rl.apiKeys.list(owner, {})).items).toEqual([]);
    expect((await chain()).map((r) => r.event_type)).toEqual(['sign_in.succeeded']);
  });

  it('puts each receipt in the org’s `audit` tree, catching up on receipts the tree lacks', async () => {
    await world.rl.apiKeys.create(owner, { name: 'a' });
    const rootOf = async () => {
      const lines: string[] = [];
      for await (const line of world.rl.audit.export(owner)) lines.push(line);
      return (await verifyExportLines(lines)).merkle_root;
    };
    const stored = () =>
      world.storage.read(async (tx) => {
        const size = await treeSize(tx, owner.orgId, AUDIT_LOG);
        return { size, root: toHex(await treeRootAt(tx, owner.orgId, AUDIT_LOG, size)) };
      });
    expect(await stored()).toEqual({ size: 2, root: await rootOf() });
    // As if the receipts had been written before the tree existed: the next one rebuilds it.
    await world.tamper("DELETE FROM merkle_nodes WHERE log = 'audit'");
    await world.rl.apiKeys.create(owner, { name: 'b' });
    expect(await stored()).toEqual({ size: 3, root: await rootOf() });
  });

  it('is for owners only: a member and an API key are refused', async () => {
    const { key } = await world.rl.apiKeys.create(owner, { name: 'ci' });
    const bot = await world.rl.auth.authenticateApiKey(key);
    await world.rl.orgs.createInvite(owner, { email: 'm@example.com', role: 'member' });
    const member = await signIn(world.rl, 'm@example.com');
    for (const who of [bot, member]) {
      expect(await code(world.rl.audit.list(who, {}))).toBe('forbidden');
      expect(await code(world.rl.audit.export(who)[Symbol.asyncIterator]().next())).toBe(
        'forbidden',
      );
    }
  });
});
