import { expect } from 'vitest';
import type { Api } from './openapi.js';
import { approvedRun } from './runs.js';

/** One answer to POST /runs/{id}/receipt, or null when no HTTP answer came (a reset connection). */
export interface MintAnswer {
  status: number;
  receiptId: string | null;
  detail: string | null;
  retryAfter: string | null;
}

/** Counts of answers by status, over a storm (e.g. { 201: 340, 503: 57 }). */
export type Tally = Record<string, number>;

/** `count` approved runs, made `parallel` at a time. */
export async function approvedRuns(
  api: Api,
  token: string,
  projectId: string,
  count: number,
  parallel = 8,
): Promise<string[]> {
  const runs: string[] = [];
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started += 1;
      runs.push(await approvedRun(api, token, projectId));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return runs;
}

export async function mintOnce(url: string, token: string, runId: string): Promise<MintAnswer> {
  const res = await fetch(`${url}/runs/${runId}/receipt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { receipt_id?: string; detail?: string };
  return {
    status: res.status,
    receiptId: body.receipt_id ?? null,
    detail: body.detail ?? null,
    retryAfter: res.headers.get('retry-after'),
  };
}

/** What a storm saw: every answer's status, the receipt acknowledged (201) or found (200) per run. */
export interface StormResult {
  tally: Tally;
  /** Receipts answered 201: each must be in the ledger afterwards. */
  acknowledged: Set<string>;
  /** Each run's receipt, from its final 2xx. */
  receiptOf: Map<string, string>;
  /** 503s whose run then answered 200: the receipt was made though the answer could not say so. */
  foundAfter503: number;
}

/**
 * Mints every run, `concurrency` at a time, as a client that sends a request again after a 503
 * would: a run answered 503 goes back in the queue until it answers 2xx. `onAnswer` sees every
 * answer as it comes (a test starts its fault from there). Any status but 200, 201 and 503 fails.
 */
export async function mintStorm(
  url: string,
  token: string,
  runIds: readonly string[],
  options: { concurrency?: number; onAnswer?: (answer: MintAnswer, answered: number) => void },
): Promise<StormResult> {
  const queue = [...runIds];
  const result: StormResult = {
    tally: {},
    acknowledged: new Set(),
    receiptOf: new Map(),
    foundAfter503: 0,
  };
  const had503 = new Set<string>();
  let answered = 0;
  const worker = async () => {
    for (let runId = queue.shift(); runId !== undefined; runId = queue.shift()) {
      const answer = await mintOnce(url, token, runId);
      answered += 1;
      result.tally[answer.status] = (result.tally[answer.status] ?? 0) + 1;
      options.onAnswer?.(answer, answered);
      expect([200, 201, 503], `${answer.status} ${answer.detail}`).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.detail).toEqual(expect.any(String));
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        had503.add(runId);
        queue.push(runId);
        continue;
      }
      if (answer.status === 201) result.acknowledged.add(answer.receiptId!);
      if (answer.status === 200 && had503.has(runId)) result.foundAfter503 += 1;
      result.receiptOf.set(runId, answer.receiptId!);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return result;
}

/** Resolves once `condition` holds, polling; fails after `timeoutMs` saying what it waited for. */
export async function waitFor(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** GET /ready's status and detail. */
export async function readiness(url: string): Promise<{ status: number; detail: string }> {
  const res = await fetch(`${url}/ready`);
  const body = (await res.json()) as { detail?: string };
  return { status: res.status, detail: body.detail ?? '' };
}

/**
 * The organization's ledger after a storm: its chain verifies, it holds exactly one receipt per run
 * (no run minted twice) and every receipt a 201 acknowledged.
 */
export async function expectLedgerWhole(
  api: Api,
  token: string,
  storm: StormResult,
  runCount: number,
): Promise<void> {
  const verified = await api<{ ok: boolean; receipts_checked: number }>('GET', '/ledger/verify', {
    token,
  });
  expect(verified.body.ok).toBe(true);
  expect(verified.body.receipts_checked).toBe(runCount);
  const ids = new Set<string>();
  type Page = { entries: Array<{ receipt_id: string; org_seq: number }> };
  for (let after: number | null = -1; after !== null;) {
    const query = after >= 0 ? `&after_seq=${after}` : '';
    const page: Page = (await api<Page>('GET', `/ledger?limit=200${query}`, { token })).body;
    page.entries.forEach((e) => ids.add(e.receipt_id));
    after = page.entries.length === 200 ? page.entries.at(-1)!.org_seq : null;
  }
  expect(ids.size).toBe(runCount);
  for (const id of storm.acknowledged) expect(ids.has(id), id).toBe(true);
  expect(new Set(storm.receiptOf.values())).toEqual(ids);
}
