import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cryptoRandom,
  openFileBlobStore,
  openJsonlReceiptSink,
  openSqliteStorage,
} from '@runledger/adapters';
import { createRunledger, type Actor, type Runledger, type RunledgerConfig } from '@runledger/core';
import type { Storage } from '@runledger/core/ports';
import { CapturingMailer, ManualClock, testCheckpointSigner } from '@runledger/core/testing';

export { CapturingMailer };

/** A clock that stands still until the test moves it, starting on 2025-03-01. */
export class TestClock extends ManualClock {
  constructor(ms = Date.parse('2025-03-01T12:00:00.000Z')) {
    super(ms);
  }
}

export interface World {
  rl: Runledger;
  storage: Storage;
  clock: TestClock;
  mailer: CapturingMailer;
  file: string;
  dir: string;
  close(): Promise<void>;
}

/** The real SDK over a real SQLite file in a fresh temporary directory. */
export async function openWorld(
  options: { production?: boolean; mailerConfigured?: boolean } = {},
): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-identity-'));
  const file = join(dir, 'runledger.sqlite');
  const storage = await openSqliteStorage({ file });
  const clock = new TestClock();
  const mailer = new CapturingMailer(options.mailerConfigured ?? false);
  const config: RunledgerConfig = {
    publicBaseUrl: 'http://runledger.test',
    production: options.production ?? false,
    magicLinkTtlMinutes: 10,
    inviteTtlHours: 168,
    receiptPrefix: 'rcpt',
    leaseTtlSeconds: 600,
    jobMaxAttempts: 3,
    tribunalClaimTtlSeconds: 300,
    tribunalMaxAttempts: 3,
  };
  // Outside `dir`, whose files the secrets-at-rest test reads one by one.
  const receiptsDir = await mkdtemp(join(tmpdir(), 'runledger-identity-receipts-'));
  const receiptSink = await openJsonlReceiptSink(receiptsDir);
  // Beside the data directory, not in it: identity tests scan every file of `dir` for secrets.
  const blobDir = await mkdtemp(join(tmpdir(), 'runledger-identity-blobs-'));
  const blobs = await openFileBlobStore(blobDir);
  const rl = createRunledger(
    {
      storage,
      clock,
      random: cryptoRandom(),
      mailer,
      receiptSink,
      blobs,
      checkpointSigner: testCheckpointSigner(),
    },
    config,
  );
  let closed = false;
  return {
    rl,
    storage,
    clock,
    mailer,
    file,
    dir,
    async close() {
      if (!closed) {
        await storage.close();
        await receiptSink.close();
      }
      closed = true;
      await rm(dir, { recursive: true, force: true });
      await rm(receiptsDir, { recursive: true, force: true });
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

export function tokenOf(link: string | undefined): string {
  const token = link === undefined ? null : new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${String(link)}`);
  return token;
}

/** Signs an e-mail in through a dev link and returns the resolved actor. */
export async function signIn(rl: Runledger, email: string): Promise<Actor> {
  const answer = await rl.auth.requestLink(email);
  const signInResult = await rl.auth.verifyLink(tokenOf(answer.dev_link));
  return rl.auth.resolveUser(signInResult.user.id, signInResult.org.id);
}
