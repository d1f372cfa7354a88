import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouterReceiptLine } from '@runledger/core/ports';
import { apiClient, type Api } from './openapi.js';
import { startTestServer, type TestServer } from './server.js';

export const REGISTRATION_KEY = 'test-registration-key-0123456789';

export interface RouterWorld {
  server: TestServer;
  /** Validates every response against the ROUTER listener's /openapi.json. */
  api: Api;
  close(): Promise<void>;
}

/** A real server with worker registration on; `api` talks to the router listener. */
export async function startRouterWorld(env: Record<string, string> = {}): Promise<RouterWorld> {
  const server = await startTestServer({ WORKER_REGISTRATION_KEY: REGISTRATION_KEY, ...env });
  const { api } = await apiClient(server.routerUrl);
  return { server, api, close: () => server.close() };
}

function expectStatus(what: string, status: number, want: number, text: string): void {
  if (status !== want) throw new Error(`${what}: ${status} ${text}`);
}

/** A member, activated unless `active: false`. */
export async function newMember(api: Api, active = true, email = 'ada@example.com') {
  const created = await api<{ member_id: string }>('POST', '/members', {
    body: { email, name: 'Ada' },
  });
  expectStatus('POST /members', created.status, 201, created.text);
  if (active) {
    const activated = await api('POST', `/members/${created.body.member_id}/activate`, {
      body: {},
    });
    expectStatus('activate', activated.status, 200, activated.text);
  }
  return created.body.member_id;
}

export async function newWorker(api: Api, nodeClass = 'gpu_a_96gb', name = 'w1') {
  const registered = await api<{ worker_id: string; worker_token: string }>(
    'POST',
    '/workers/register',
    { body: { name, node_class: nodeClass }, headers: { 'x-registration-key': REGISTRATION_KEY } },
  );
  expectStatus('register', registered.status, 201, registered.text);
  return registered.body;
}

export async function newJob(
  api: Api,
  memberId: string,
  extra: Record<string, unknown> = {},
): Promise<{ job_id: string }> {
  const created = await api<{ job_id: string }>('POST', '/jobs', {
    body: { member_id: memberId, type: 'inference', node_class: 'gpu_a_96gb', hours: 1, ...extra },
  });
  expectStatus('POST /jobs', created.status, 201, created.text);
  return created.body;
}

export interface Leased {
  job: { job_id: string; attempt: number; status: string };
  lease_token: string;
  lease_expires_at: string;
}

export async function lease(api: Api, workerToken: string): Promise<Leased | null> {
  const leased = await api<Leased>('POST', '/workers/jobs/lease', {
    token: workerToken,
    body: {},
  });
  if (leased.status === 204) return null;
  expectStatus('lease', leased.status, 200, leased.text);
  return leased.body;
}

/** The receipt day files under DATA_DIR/receipts, sorted by name. */
export async function receiptFiles(dataDir: string): Promise<string[]> {
  const dir = join(dataDir, 'receipts');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.receipts.jsonl')).sort();
  return names.map((n) => join(dir, n));
}

/** Every receipt line written so far, in file and line order. */
export async function receipts(dataDir: string): Promise<RouterReceiptLine[]> {
  const lines: RouterReceiptLine[] = [];
  for (const file of await receiptFiles(dataDir)) {
    const text = await readFile(file, 'utf8');
    for (const line of text.split('\n')) {
      if (line !== '') lines.push(JSON.parse(line) as RouterReceiptLine);
    }
  }
  return lines;
}
