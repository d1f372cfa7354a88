import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { newMember } from '../helpers/router.js';
import { approvedRun, newProject } from '../helpers/runs.js';

/**
 * kill -9 of the real server process (`node server/dist/main.js`) during a storm of mints and router
 * quotes, then a restart on the same DATA_DIR: every acknowledged receipt is there, the organization's
 * chain verifies, and the router receipt files verify with `runledger-verify receipts`.
 * CRASH_ROUNDS (default 3) sets the rounds.
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const MINTS_PER_ROUND = 6;
const QUOTES_PER_ROUND = 20;
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

interface Server {
  child: ChildProcess;
  url: string;
  routerUrl: string;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [join(root, 'server', 'dist', 'main.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      ROUTER_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: 'http://runledger.test',
      AUTH_REQUEST_LIMIT_PER_EMAIL: '1000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const entry = JSON.parse(line) as { url?: string; router_url?: string };
    if (entry.url && entry.router_url) {
      // Keep draining stdout so the child never blocks on a full pipe.
      lines.on('line', () => undefined);
      return { child, url: entry.url, routerUrl: entry.router_url };
    }
  }
  throw new Error('the server exited before listening');
}

function killHard(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

describe(`kill -9 during a mint and quote storm, ${ROUNDS} rounds`, () => {
  let dataDir: string;
  let server: Server;
  let main: Api;
  let router: Api;
  let ada: SignedIn;
  let projectId: string;
  let memberId: string;
  const acknowledgedMints = new Set<string>();
  const acknowledgedQuotes = new Set<string>();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-crash-'));
    server = await startServer(dataDir);
    ({ api: main } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
    ada = await signIn(main, 'ada@example.com');
    projectId = await newProject(main, ada.token);
    memberId = await newMember(router);
  }, 60_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) await killHard(server);
    await rm(dataDir, { recursive: true, force: true });
  });

  for (let round = 1; round <= ROUNDS; round += 1) {
    it(`round ${round}: every acknowledged receipt survives and both chains verify`, async () => {
      const runs: string[] = [];
      for (let i = 0; i < MINTS_PER_ROUND; i += 1) {
        runs.push(await approvedRun(main, ada.token, projectId));
      }
      // The storm: every mint and quote at once, the kill as soon as the first answers arrive.
      const post = (url: string, body?: unknown, token?: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        })
          .then(async (res) => ({
            status: res.status,
            body: (await res.json()) as Record<string, unknown>,
          }))
          .catch(() => null);
      let answered = 0;
      const killed = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (answered >= 3) {
            clearInterval(check);
            resolve();
          }
        }, 1);
      }).then(() => killHard(server));
      const storm = [
        ...runs.map((runId) =>
          post(`${server.url}/runs/${runId}/receipt`, undefined, ada.token).then((r) => {
            answered += 1;
            if (r && (r.status === 201 || r.status === 200)) {
              acknowledgedMints.add(String(r.body.receipt_id));
            }
          }),
        ),
        ...Array.from({ length: QUOTES_PER_ROUND }, () =>
          post(`${server.routerUrl}/compute/quote`, {
            member_id: memberId,
            node_class: 'gpu_a_96gb',
            hours: 1,
          }).then((r) => {
            answered += 1;
            if (r && r.status === 200) acknowledgedQuotes.add(String(r.body.receipt_id));
          }),
        ),
      ];
      const before = acknowledgedMints.size + acknowledgedQuotes.size;
      await Promise.all([...storm, killed]);
      // The kill came after some answers: the round checks something.
      expect(acknowledgedMints.size + acknowledgedQuotes.size).toBeGreaterThan(before);

      server = await startServer(dataDir);
      ({ api: main } = await apiClient(server.url));
      ({ api: router } = await apiClient(server.routerUrl));

      const verified = await main<{ ok: boolean }>('GET', '/ledger/verify', { token: ada.token });
      expect(verified.body.ok).toBe(true);
      const ledger = await main<{ entries: Array<{ receipt_id: string }> }>(
        'GET',
        '/ledger?limit=200',
        { token: ada.token },
      );
      const minted = new Set(ledger.body.entries.map((e) => e.receipt_id));
      for (const id of acknowledgedMints) expect(minted.has(id), id).toBe(true);

      const receiptsDir = join(dataDir, 'receipts');
      const routerFiles = (await readdir(receiptsDir)).filter((n) => n.endsWith('.receipts.jsonl'));
      const lines = (
        await Promise.all(routerFiles.map((n) => readFile(join(receiptsDir, n), 'utf8')))
      ).join('');
      for (const id of acknowledgedQuotes) expect(lines, id).toContain(`"${id}"`);
      const cli = join(root, 'verify-tool', 'bin', 'runledger-verify.js');
      const checked = await run(process.execPath, [
        cli,
        'receipts',
        ...routerFiles.map((n) => join(receiptsDir, n)),
      ]);
      expect(checked.stdout).toMatch(/ok|verified|OK/i);
    }, 120_000);
  }
});
