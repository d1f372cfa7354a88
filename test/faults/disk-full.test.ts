import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, readdir, readFile, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { blobFiles } from '../helpers/blobs.js';
import {
  approvedRuns,
  expectLedgerWhole,
  mintOnce,
  mintStorm,
  readiness,
  waitFor,
  type Tally,
} from '../helpers/fault-storm.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { spawnServer, type ServerProcess } from '../helpers/processes.js';
import { newMember } from '../helpers/router.js';
import { approvedRun, newProject, newRun } from '../helpers/runs.js';

/**
 * DATA_DIR on a small tmpfs, filled to the last byte during a storm of mints, evidence uploads (the
 * blob store) and router quotes (the day files), then freed: no answer but 2xx and 503 (each 503
 * with a detail and Retry-After), /ready says `disk_space` while the disk is full, every acknowledged
 * receipt is there and every chain verifies, and the same process mints again once there is room.
 * Mounting needs root (`.ci/run` runs as root): elsewhere the file is skipped with the reason, except
 * in CI, where it fails.
 */
const RUNS = 150;
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

async function mountTmpfs(): Promise<{ dir: string } | { reason: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'runledger-disk-full-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dir]);
    return { dir };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return { reason: error instanceof Error ? error.message.trim() : String(error) };
  }
}

const mounted = await mountTmpfs();
if ('reason' in mounted) {
  if (process.env['CI']) throw new Error(`cannot mount a tmpfs in CI: ${mounted.reason}`);
  console.warn(`disk-full tests skipped: mounting a tmpfs is not allowed here (${mounted.reason})`);
}

/**
 * Appends to `path` until the file system refuses (ENOSPC), in ever smaller pieces down to one byte,
 * or, with `leave`, stops `leave` bytes short of full.
 */
async function fillUp(path: string, leave = 0): Promise<number> {
  if (leave > 0) {
    const room = await statfs(join(path, '..'));
    const target = room.bavail * room.bsize - leave;
    const handle = await open(path, 'a');
    await handle.write(Buffer.alloc(Math.max(0, target), 0x61));
    await handle.close();
    return target;
  }
  const handle = await open(path, 'a');
  let written = 0;
  try {
    for (let size = 1024 * 1024; size >= 1; size = Math.floor(size / 16)) {
      const chunk = Buffer.alloc(size, 0x61);
      for (;;) {
        const ok = await handle.write(chunk).then(
          ({ bytesWritten }) => {
            written += bytesWritten;
            return bytesWritten === size;
          },
          () => false,
        );
        if (!ok) break;
      }
    }
  } finally {
    await handle.close();
  }
  return written;
}

describe.skipIf('reason' in mounted)('a full disk during a storm', () => {
  const dir = 'dir' in mounted ? mounted.dir : '';
  const dataDir = join(dir, 'data');
  const filler = join(dir, 'filler');
  let server: ServerProcess;
  let api: Api;
  let router: Api;

  beforeAll(async () => {
    await mkdir(dataDir);
    server = await spawnServer({ DATA_DIR: dataDir, AUTH_REQUEST_LIMIT_PER_EMAIL: '1000' });
    ({ api } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir !== '') {
      await run('umount', [dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 while full, loses nothing acknowledged, and resumes by itself when space returns', async () => {
    const { token } = await signIn(api, 'full@example.com');
    const projectId = await newProject(api, token);
    const runIds = await approvedRuns(api, token, projectId, RUNS);
    const memberId = await newMember(router);
    const others: Tally = {};
    const unexpected: string[] = [];
    const answered = (what: string, status: number, detail: unknown, allowed: number[]) => {
      others[`${what} ${status}`] = (others[`${what} ${status}`] ?? 0) + 1;
      if (status === 503 && full) fullAnswers += 1;
      if (!allowed.includes(status) || (status === 503 && typeof detail !== 'string')) {
        unexpected.push(`${what} ${status} ${String(detail)}`);
      }
    };
    const quotes = new Set<string>();
    let full = false;
    let fullAnswers = 0;
    let mint503 = 0;
    let filling: Promise<number> | null = null;
    let stop = false;

    // Beside the mints: uploads into the blob store and router quotes into the day files.
    // Runs made before the disk fills: an upload reaches the blob store even when the database
    // could not take a new run.
    const uploadRuns = await Promise.all(
      Array.from({ length: 8 }, () => newRun(api, token, projectId)),
    );
    let uploads = 0;
    const upload = async () => {
      const runId = uploadRuns[uploads++ % uploadRuns.length]!;
      const form = new FormData();
      form.append('label', 'trace');
      form.append('file', new Blob([Buffer.alloc(256 * 1024, 0x62)]), 'trace.bin');
      const res = await fetch(`${server.url}/runs/${runId}/evidence/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { detail?: string };
      answered('upload', res.status, body.detail, [201, 503]);
    };
    const quote = async () => {
      const res = await fetch(`${server.routerUrl}/compute/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ member_id: memberId, node_class: 'gpu_a_96gb', hours: 1 }),
      });
      const body = (await res.json()) as { receipt_id?: string; detail?: string };
      answered('quote', res.status, body.detail, [201, 503]);
      if (res.status === 503 && !(Number(res.headers.get('retry-after')) > 0)) {
        unexpected.push('quote 503 without Retry-After');
      }
      if (res.status === 201) quotes.add(body.receipt_id!);
    };
    const sideLoad = (async () => {
      while (!stop) await Promise.all([upload(), quote(), quote()]);
    })();

    // Nearly full before the storm; the rest goes once the storm is under way.
    await fillUp(filler, 2 * 1024 * 1024);
    const storm = mintStorm(server.url, token, runIds, {
      concurrency: 8,
      onAnswer: (answer, answered) => {
        if (answer.status === 503 && full) {
          fullAnswers += 1;
          mint503 += 1;
        }
        if (filling === null && answered >= 20) {
          filling = fillUp(filler).then((n) => {
            full = true;
            return n;
          });
        }
      },
    });
    await waitFor('the disk to fill', () => full);
    let stormDone = false;
    void storm.then(() => void (stormDone = true));
    // Full long enough for every writer to meet it: the blob store, the day files, and the mints
    // (SQLite reuses its WAL's space, so mints may go on succeeding until the WAL must grow).
    const refused = (what: string) => (others[`${what} 503`] ?? 0) > 0;
    await waitFor(
      'an upload and a quote answered 503 while the disk is full',
      () => full && refused('upload') && refused('quote'),
    );
    await waitFor('a mint answered 503, or every mint answered', () => stormDone || mint503 > 0);
    await waitFor('/ready to name disk_space', async () => {
      const ready = await readiness(server.url);
      return ready.status === 503 && ready.detail.includes('disk_space');
    });

    await rm(filler);
    await waitFor('/ready to answer 200', async () => (await readiness(server.url)).status === 200);
    const result = await storm;
    stop = true;
    await sideLoad;
    expect(unexpected).toEqual([]);
    console.log(
      `disk full: mints ${JSON.stringify(result.tally)}, uploads and quotes ${JSON.stringify(others)}, ` +
        `503s while full ${fullAnswers}, 200 after a 503 ${result.foundAfter503}`,
    );
    expect(server.child.exitCode).toBeNull();

    // Uploads, quotes and mints resume in the same process.
    const before = { upload: others['upload 201'] ?? 0, quote: others['quote 201'] ?? 0 };
    await Promise.all([upload(), quote()]);
    expect(others['upload 201']).toBe(before.upload + 1);
    expect(others['quote 201']).toBe(before.quote + 1);
    const fresh = await approvedRun(api, token, projectId);
    const minted = await mintOnce(server.url, token, fresh);
    expect(minted.status).toBe(201);
    result.acknowledged.add(minted.receiptId!);
    result.receiptOf.set(fresh, minted.receiptId!);
    await expectLedgerWhole(api, token, result, RUNS + 1);

    // Every acknowledged quote is in a day file, and the day files verify.
    const receiptsDir = join(dataDir, 'receipts');
    const dayFiles = (await readdir(receiptsDir)).filter((n) => n.endsWith('.receipts.jsonl'));
    const lines = (
      await Promise.all(dayFiles.map((n) => readFile(join(receiptsDir, n), 'utf8')))
    ).join('');
    for (const id of quotes) expect(lines, id).toContain(`"${id}"`);
    const cli = join(root, 'verify-tool', 'bin', 'runledger-verify.js');
    await run(process.execPath, [cli, 'receipts', ...dayFiles.map((n) => join(receiptsDir, n))]);
    // No spool file left behind by a refused upload.
    expect((await blobFiles(dataDir)).filter((f) => f.startsWith('spool'))).toEqual([]);
  }, 90_000);
});
