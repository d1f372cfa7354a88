import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCheckpointSigner } from '@runledger/core/testing';
import { checkSignedCheckpoint, parseKeysDocument } from '@runledger/verify';
import { signCheckpoint } from '@runledger/verify/ledger';
import { signRouterAnchor } from '@runledger/verify/router';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNED_HISTORY_FILE, SignedHistory, recordingSigner } from './signed-history.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const root = (byte: number) => new Uint8Array(32).fill(byte);
const T = '2026-11-26T12:00:00.000Z';

describe('the signed-checkpoint history (a real file in STATE_DIR)', () => {
  it('keeps the largest checkpoint signed per log, across a reopen, and the note it returned', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'runledger-state-'));
    dirs.push(dir);
    const stateDir = join(dir, 'state');
    const base = testCheckpointSigner();
    const signer = recordingSigner(base, SignedHistory.open(stateDir));
    const sign = (origin: string, size: number, byte: number) =>
      signCheckpoint({ origin, size, rootHash: root(byte), time: T }, signer);
    sign('runledger.test/orgs/org_a', 3, 1);
    const five = sign('runledger.test/orgs/org_a', 5, 2);
    sign('runledger.test/orgs/org_a', 4, 3); // an export at an older size: not a newer history
    sign('runledger.test/orgs/org_a/audit', 2, 4);
    signRouterAnchor(
      {
        host: 'runledger.test',
        dayFileName: '2026-11-26.receipts.jsonl',
        lineCount: 9,
        headChecksum: 'ab'.repeat(32),
        time: T,
      },
      signer,
    );

    const reopened = SignedHistory.open(stateDir);
    const heads = reopened.heads().map((h) => [h.org_id, h.log, h.tree_size, h.root_hash, h.time]);
    expect(heads.sort()).toEqual([
      ['org_a', 'audit', 2, '04'.repeat(32), T],
      ['org_a', 'ledger', 5, '02'.repeat(32), T],
    ]);
    const ledger = reopened.heads().find((h) => h.log === 'ledger')!;
    expect(ledger.note).toBe(five);
    const checked = checkSignedCheckpoint(ledger.note, {
      originSuffix: '/orgs/org_a',
      size: 5,
      root: root(2),
      keys: parseKeysDocument({ keys: base.published }),
    });
    expect(checked.findings).toEqual([]);
    expect(checked.authorship.status).toBe('verified');

    reopened.forget([{ org_id: 'org_a', log: 'ledger' }]);
    const text = await readFile(join(stateDir, SIGNED_HISTORY_FILE), 'utf8');
    expect(Object.keys((JSON.parse(text) as { logs: object }).logs)).toEqual(['org_a/audit']);
  });

  it('reads as empty when nothing was signed yet, and refuses a file that is not a history', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'runledger-state-'));
    dirs.push(dir);
    expect(SignedHistory.open(join(dir, 'none')).heads()).toEqual([]);
    await writeFile(join(dir, SIGNED_HISTORY_FILE), '{"version":2}');
    expect(() => SignedHistory.open(dir)).toThrow(/not a signed-checkpoint history/);
  });
});
