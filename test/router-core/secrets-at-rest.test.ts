import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { activeMember, openRouterWorld } from './setup.js';

it('keeps no plaintext worker or lease token in the database files or the receipt files', async () => {
  const w = await openRouterWorld();
  try {
    const member = await activeMember(w.router);
    const secrets: string[] = [];
    for (let i = 0; i < 3; i++) {
      await w.router.createJob({
        member_id: member,
        type: 'eval',
        node_class: 'gpu_b_32gb',
        hours: 1,
      });
      const reg = await w.router.registerWorker({ name: `w${i}`, node_class: 'gpu_b_32gb' });
      const actor = await w.router.authenticateWorker(reg.worker_token);
      const lease = (await w.router.leaseJob(actor))!;
      await w.router.acceptJob(actor, lease.job.job_id, { lease_token: lease.lease_token });
      if (i === 0)
        await w.router.completeWorkerJob(actor, lease.job.job_id, {
          lease_token: lease.lease_token,
        });
      secrets.push(reg.worker_token, lease.lease_token);
    }
    await w.router.sweepExpiredLeases();
    // Every file under the data directory: the database and its WAL, receipt files, blobs.
    const entries = await readdir(w.dir, { recursive: true, withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    expect(files.some((f) => f.endsWith('.receipts.jsonl'))).toBe(true);
    const bytes = await Promise.all(files.map((f) => readFile(f)));
    for (const secret of secrets) {
      // The whole token and its random part alone (without the rlw_/rll_ tag).
      for (const needle of [secret, secret.slice(4)]) {
        for (const [i, b] of bytes.entries()) {
          expect(b.includes(Buffer.from(needle)), `${needle.slice(0, 8)}… in ${files[i]}`).toBe(
            false,
          );
        }
      }
    }
  } finally {
    await w.close();
  }
});
