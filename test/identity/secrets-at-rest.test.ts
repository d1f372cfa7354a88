import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashSecret } from '@runledger/core/adapter';
import { describe, expect, it } from 'vitest';
import { openWorld, tokenOf } from './setup.js';

describe('secrets at rest and in answers', () => {
  it('stores no plaintext token, key or link, and answers with no hash', async () => {
    const w = await openWorld();
    const plaintexts: string[] = [];
    const answers: unknown[] = [];
    // Answers that carry a secret by design: the dev links and the one-time API key.
    const carriers: unknown[] = [];
    const keep = <T>(answer: T): T => {
      answers.push(answer);
      return answer;
    };
    const carry = <T>(answer: T): T => {
      carriers.push(answer);
      return answer;
    };
    try {
      const request = carry(await w.rl.auth.requestLink('owner@example.com'));
      plaintexts.push(request.dev_link ?? '', tokenOf(request.dev_link));
      const signIn = keep(await w.rl.auth.verifyLink(tokenOf(request.dev_link)));
      const owner = keep(await w.rl.auth.resolveUser(signIn.user.id, signIn.org.id));
      keep(await w.rl.auth.me(owner));

      const invite = carry(
        await w.rl.orgs.createInvite(owner, { email: 'm@example.com', role: 'member' }),
      );
      plaintexts.push(invite.dev_link ?? '', tokenOf(invite.dev_link));
      keep(await w.rl.auth.acceptInvite(tokenOf(invite.dev_link)));
      const pending = carry(
        await w.rl.orgs.createInvite(owner, { email: 'p@example.com', role: 'owner' }),
      );
      plaintexts.push(tokenOf(pending.dev_link));
      keep(await w.rl.orgs.listInvites(owner, {}));
      keep(await w.rl.orgs.listMembers(owner, {}));

      const created = carry(await w.rl.apiKeys.create(owner, { name: 'ci' }));
      const secret = created.key.slice(`rlk_${created.key_id}_`.length);
      plaintexts.push(created.key, secret);
      const keyActor = keep(await w.rl.auth.authenticateApiKey(created.key));
      keep(await w.rl.auth.me(keyActor));
      keep(await w.rl.apiKeys.list(owner, {}));
      keep(await w.rl.projects.create(keyActor, { name: 'P' }));

      expect(plaintexts.every((p) => p.length >= 43)).toBe(true);
      const hashes = plaintexts.map(hashSecret);
      const answerText = JSON.stringify(answers);
      for (const h of hashes) expect(answerText).not.toContain(h);
      expect(answerText).not.toMatch(/hash/);
      const carrierText = JSON.stringify(carriers);
      for (const h of hashes) expect(carrierText).not.toContain(h);
      expect(carrierText).not.toMatch(/hash/);
      for (const p of plaintexts) expect(answerText).not.toContain(p);

      await w.storage.close();
      const files = await readdir(w.dir);
      expect(files).toContain('runledger.sqlite');
      const bytes = Buffer.concat(
        await Promise.all(files.map((f) => readFile(join(w.dir, f)))),
      ).toString('latin1');
      // The scan can find what is stored: the hashes are there, the plaintexts are not.
      const stored = [1, 3, 4, 6].map((i) => hashSecret(plaintexts[i] ?? ''));
      for (const h of stored) expect(bytes).toContain(h);
      for (const p of plaintexts) expect(bytes).not.toContain(p);
    } finally {
      await w.close();
    }
  });
});
