import { basename, join } from 'node:path';
import { verifyRouterReceiptFiles } from '@runledger/verify';
import { describe, expect, it, vi } from 'vitest';
import { VERIFY, runNode } from '../cli/run-cli.js';
import { newMember, receiptFiles, receipts, startRouterWorld } from '../helpers/router.js';

/**
 * The router's day files under the name docs/router.md gives: `YYYY-MM-DD.receipts.jsonl` from an
 * instance without INSTANCE_ID, `YYYY-MM-DD.<INSTANCE_ID>.receipts.jsonl` from one with it.
 */
describe('router day file names', () => {
  it.each([
    ['without INSTANCE_ID', {}, (day: string) => `${day}.receipts.jsonl`],
    [
      'with INSTANCE_ID=eu-1',
      { INSTANCE_ID: 'eu-1' },
      (day: string) => `${day}.eu-1.receipts.jsonl`,
    ],
  ])('writes the day file %s, and the verifier reads it', async (_what, env, expected) => {
    const world = await startRouterWorld(env);
    try {
      await newMember(world.api);
      const [line] = await receipts(world.server.dataDir);
      const day = line!.created_at.slice(0, 10);
      const files = await receiptFiles(world.server.dataDir);
      expect(files.map((f) => basename(f))).toEqual([expected(day)]);
      // The anchor is written behind the append: wait for it, then verify as a reader would.
      const dir = join(world.server.dataDir, 'receipts');
      await vi.waitFor(
        async () =>
          expect(await verifyRouterReceiptFiles(dir)).toMatchObject({
            ok: true,
            unanchored_files: [],
          }),
        { timeout: 20_000, interval: 50 },
      );
      const verified = await runNode(VERIFY, ['receipts', dir]);
      expect(verified.stdout).toMatch(/1 files checked against their anchors/);
      expect(verified.code).toBe(0);
    } finally {
      await world.close();
    }
  });
});
