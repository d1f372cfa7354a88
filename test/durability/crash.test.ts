import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStorage } from '@runledger/adapters';
import { describe, expect, it } from 'vitest';
import { startServerChild } from '../../server/src/bench/child.js';
import { httpClient } from '../../server/src/bench/load.js';
import { signIn } from '../../server/src/bench/phases.js';
import { seed } from '../../server/src/bench/seed.js';

// The built server (npm test builds first): the crash has to kill a real process.
const MAIN = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
const ENV = { JWT_SECRET: 'crash-test-jwt-secret-0123456789abcdef', LOG_LEVEL: 'silent' };

describe('a SIGKILL during a mint storm', () => {
  it('loses no acknowledged receipt and leaves a chain that verifies after restart', async () => {
    await access(MAIN).catch(() => {
      throw new Error(`${MAIN} is missing: run npm run build first (npm test does)`);
    });
    const dir = await mkdtemp(join(tmpdir(), 'runledger-crash-'));
    const file = join(dir, 'runledger.sqlite');
    try {
      const storage = await openSqliteStorage({ file });
      const [org] = await seed(storage, [
        { email: 'crash@example.com', approved: 200, chain: 0 },
      ]).finally(() => storage.close());
      const runs = [...org!.approved];

      const server = await startServerChild(MAIN, { ...ENV, DATA_DIR: dir });
      const api = httpClient(server.url, 32);
      const auth = await signIn(api, org!.email);
      const acknowledged = new Map<string, string>();
      let killed = false;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          for (let run = runs.pop(); run !== undefined && !killed; run = runs.pop()) {
            const reply = await api.request('POST', `/runs/${run}/receipt`, auth).catch(() => null);
            if (reply === null) return; // the connection died with the server
            if (reply.status !== 201) throw new Error(`mint: ${reply.status} ${reply.body}`);
            acknowledged.set(run, (JSON.parse(reply.body) as { receipt_id: string }).receipt_id);
            // Killed with the storm in full flight: other mints are queued or mid-batch.
            if (acknowledged.size === 40 && !killed) {
              killed = true;
              server.process.kill('SIGKILL');
            }
          }
        }),
      );
      api.close();
      await server.stop();
      expect(killed).toBe(true);

      const restarted = await startServerChild(MAIN, { ...ENV, DATA_DIR: dir });
      const again = httpClient(restarted.url, 4);
      try {
        const verified = await again.request(
          'GET',
          '/ledger/verify',
          await signIn(again, org!.email),
        );
        expect(verified.status).toBe(200);
        const report = JSON.parse(verified.body) as { ok: boolean; receipts_checked: number };
        expect(report.ok).toBe(true);
        expect(report.receipts_checked).toBeGreaterThanOrEqual(acknowledged.size);
      } finally {
        again.close();
        await restarted.stop();
      }

      const reopened = await openSqliteStorage({ file });
      try {
        for (const [run, receiptId] of acknowledged) {
          const receipt = await reopened.read(async (tx) => {
            const user = await tx.users.byEmail(org!.email);
            const member = await tx.memberships.byUser(user!.id);
            return tx.receipts.byRun(member!.org_id, run);
          });
          expect(receipt?.receipt_id).toBe(receiptId);
        }
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
