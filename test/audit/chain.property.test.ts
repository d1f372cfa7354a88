import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerifyError, verifyExportLines } from '@runledger/verify';
import { toHex } from '@runledger/verify/hash';
import { AUDIT_LOG, treeRootAt, treeSize } from '@runledger/core/adapter';
import type { Actor } from '@runledger/core';
import { engines } from '../helpers/postgres.js';
import { openRunWorld, signIn, type RunWorld } from '../embedding/world.js';

/** One sensitive action by one of the owners; some are refused or change nothing, by design. */
type Op =
  | { kind: 'create_key'; owner: number }
  | { kind: 'revoke_key'; owner: number; pick: number }
  | { kind: 'invite'; owner: number }
  | { kind: 'revoke_invite'; owner: number; pick: number }
  | { kind: 'failed_sign_in'; pick: number }
  | { kind: 'first_use'; pick: number };

const OWNERS = 3;
const owner = fc.nat({ max: OWNERS - 1 });
const pick = fc.nat({ max: 1000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create_key' as const), owner }),
  fc.record({ kind: fc.constant('revoke_key' as const), owner, pick }),
  fc.record({ kind: fc.constant('invite' as const), owner }),
  fc.record({ kind: fc.constant('revoke_invite' as const), owner, pick }),
  fc.record({ kind: fc.constant('failed_sign_in' as const), pick }),
  fc.record({ kind: fc.constant('first_use' as const), pick }),
);
/** Batches of actions run at once: the owners interleave inside a batch. */
const batches = fc.array(fc.array(op, { minLength: 1, maxLength: 5 }), {
  minLength: 1,
  maxLength: 4,
});

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe.each(engines)('the audit chain on %s', (engine) => {
  let world: RunWorld;
  let owners: Actor[];
  const keys: { id: string; key: string }[] = [];
  const invites: string[] = [];
  let n = 0;

  beforeAll(async () => {
    world = await openRunWorld(engine);
    const first = await signIn(world.rl, 'owner0@example.com');
    owners = [first];
    for (let i = 1; i < OWNERS; i++) {
      await world.rl.orgs.createInvite(first, { email: `owner${i}@example.com`, role: 'owner' });
      owners.push(await signIn(world.rl, `owner${i}@example.com`));
    }
  });
  afterAll(async () => {
    await world.close();
  });

  async function perform(o: Op): Promise<void> {
    const { rl } = world;
    const key = keys.length === 0 ? undefined : keys[('pick' in o ? o.pick : 0) % keys.length];
    switch (o.kind) {
      case 'create_key': {
        const created = await rl.apiKeys.create(owners[o.owner]!, { name: `k${n++}` });
        keys.push({ id: created.key_id, key: created.key });
        return;
      }
      case 'revoke_key':
        if (key) await rl.apiKeys.revoke(owners[o.owner]!, key.id);
        return;
      case 'invite': {
        const invite = await rl.orgs.createInvite(owners[o.owner]!, {
          email: `guest${n++}@example.com`,
          role: 'member',
        });
        invites.push(invite.id);
        return;
      }
      case 'revoke_invite': {
        const id = invites[o.pick % Math.max(1, invites.length)];
        if (id) await rl.orgs.revokeInvite(owners[o.owner]!, id);
        return;
      }
      case 'failed_sign_in':
        if (key) await rl.auth.authenticateApiKey(`${key.key.slice(0, -1)}!`).catch(() => null);
        return;
      case 'first_use':
        if (key) await rl.auth.authenticateApiKey(key.key).catch(() => null);
        return;
    }
  }

  it('stays gapless and forkless under interleaved owners; runledger-verify accepts it and locates any changed byte', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.nat(), fc.nat(), async (plan, lineSeed, byteSeed) => {
        for (const batch of plan) {
          await Promise.all(batch.map(perform));
          world.clock.advance(1000);
        }
        const lines = await collect(world.rl.audit.export(owners[0]!));
        const header = JSON.parse(lines[0]!) as Record<string, unknown>;
        expect(header).toMatchObject({
          log: 'audit',
          receipt_prefix: 'audit',
          count: lines.length - 1,
        });
        const seqs = lines.slice(1).map((l) => (JSON.parse(l) as { org_seq: number }).org_seq);
        expect(seqs).toEqual(seqs.map((_, i) => i));
        const clean = await verifyExportLines(lines, { strict: true });
        expect(clean.errors).toEqual([]);
        expect(clean.ok).toBe(true);
        expect(clean.receipts_checked).toBe(seqs.length);
        // The stored `audit` tree holds exactly these receipts, in order.
        const stored = await world.storage.read(async (tx) => ({
          size: await treeSize(tx, owners[0]!.orgId, AUDIT_LOG),
          root: toHex(await treeRootAt(tx, owners[0]!.orgId, AUDIT_LOG, seqs.length)),
        }));
        expect(stored).toEqual({ size: seqs.length, root: clean.merkle_root });

        // One byte of one receipt line changed: caught, and reported on that line.
        const index = 1 + (lineSeed % (lines.length - 1));
        const line = lines[index]!;
        const at = byteSeed % line.length;
        const replacement = line[at] === '0' ? '1' : '0';
        const tampered = [...lines];
        tampered[index] = line.slice(0, at) + replacement + line.slice(at + 1);
        const result = await verifyExportLines(tampered, { strict: true }).catch(
          (error: unknown) => error,
        );
        if (result instanceof VerifyError) {
          // A last line that no longer parses reads as a cut-off export, named by its line.
          expect(result.message).toContain(`line ${index + 1} `);
          return;
        }
        const found = result as Awaited<ReturnType<typeof verifyExportLines>>;
        expect(found.ok).toBe(false);
        expect(found.errors.some((e) => e.line === index + 1)).toBe(true);
      }),
      { numRuns: engine === 'sqlite' ? 12 : 6 },
    );
  }, 300_000);
});
