/**
 * `npm run bench:app`: server time of the web app's two heaviest pages on a real SQLite file, over
 * loopback HTTP: a run page with 200 checks and 50 evidence items, and the runs list of an
 * organization with 10^5 runs (first page, a later page, filtered by state and by project).
 * Prints p50 and p95 per page, and beside them the floor: node:http alone answering the same HTML
 * in the same run. No pass/fail (speed is measured here, never asserted in tests).
 *
 *   node server/dist/bench/app-bench.js [--runs N] [--requests N]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { openFileBlobStore, openSqliteStorage, systemClock } from '@runledger/adapters';
import type { Actor, Runledger } from '@runledger/core';
import type { Storage } from '@runledger/core/ports';
import express from 'express';
import { jwtSigner } from '../http/jwt.js';
import { StoredWindowLimiter } from '../http/rate-limit.js';
import { sessions, webApp } from '../web-app/index.js';
import { benchRunledger, signUp } from './seed.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} needs a positive integer`);
  return value;
}

/** A sheet of 200 checklist rules, so an audit leaves 200 open checks. */
const bigSheet = () => ({
  slug: 'bench-two-hundred',
  name: 'Two hundred checks',
  version: '1.0.0',
  lane: 'bench',
  summary: 'Every rule a checklist rule.',
  pass_threshold: 80,
  fail_threshold: 50,
  required_output_schema: { type: 'object' },
  audit_checks: Array.from({ length: 200 }, (_, i) => ({
    key: `rule_${i}`,
    label: `Rule number ${i} of the review`,
    category: 'policy',
    kind: 'checklist',
    severity: (['high', 'medium', 'low'] as const)[i % 3],
    guidance: `Look at part ${i} of the reply and pass it when it is right.`,
  })),
});

/** The run page's run: 50 text evidence items, a submission, an audit with 200 open checks. */
async function bigRun(rl: Runledger, me: Actor, projectId: string): Promise<string> {
  const sheet = await rl.flightSheets.create(me, bigSheet());
  const run = await rl.runs.create(me, {
    project_id: projectId,
    flight_sheet_id: sheet.id,
    title: 'big',
  });
  for (let i = 0; i < 50; i += 1) {
    await rl.runs.addEvidence(me, run.id, {
      kind: 'text',
      label: `item ${i}`,
      content: 'x'.repeat(300),
    });
  }
  await rl.runs.submit(me, run.id, {
    answer: 'text '.repeat(100),
    parts: Array.from({ length: 50 }, (_, i) => i),
  });
  await rl.runs.audit(me, run.id);
  return run.id;
}

/** 10^5 runs written straight through the repositories, 2000 a transaction (copies of one real run). */
async function manyRuns(
  storage: Storage,
  me: Actor & { orgId: string },
  templateId: string,
  count: number,
) {
  const template = await storage.read((tx) => tx.runs.get(me.orgId, templateId));
  if (template === null) throw new Error('bench: template run not found');
  for (let start = 0; start < count; start += 2000) {
    await storage.write(async (tx) => {
      for (let i = start; i < Math.min(count, start + 2000); i += 1) {
        const at = new Date(Date.UTC(2021, 0, 1) + i * 1000).toISOString();
        const state = i % 7 === 0 ? 'approved' : 'draft';
        await tx.runs.insert({
          ...template,
          id: `run_bench${i}`,
          state,
          created_at: at,
          updated_at: at,
        });
      }
    });
  }
}

/** Server time of each request (from arrival to the last byte written), by path. */
function timings() {
  const seen: number[] = [];
  const middleware: express.RequestHandler = (_req, res, next) => {
    const started = performance.now();
    res.on('finish', () => seen.push(performance.now() - started));
    next();
  };
  return { seen, middleware };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** `requests` GETs one after another, after ten untimed ones; `seen` collects the server's times. */
async function measure(url: string, cookie: string, requests: number, seen: number[]) {
  for (let i = 0; i < 10; i += 1) await (await fetch(url, { headers: { cookie } })).text();
  seen.length = 0;
  let html = '';
  for (let i = 0; i < requests; i += 1) {
    const answer = await fetch(url, { headers: { cookie } });
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
    html = await answer.text();
  }
  return { p50: quantile(seen, 0.5), p95: quantile(seen, 0.95), html };
}

/**
 * The platform's floor for a page: node:http alone answering the same HTML, timed the same way
 * (arrival to the last byte) over the same loopback client, in the same run.
 */
async function bareFloor(html: string, requests: number): Promise<number> {
  const seen: number[] = [];
  const server = createServer((_req, res) => {
    const started = performance.now();
    res.on('finish', () => seen.push(performance.now() - started));
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
    });
    res.end(html);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await measure(url, '', requests, seen);
    return quantile(seen, 0.5);
  } finally {
    server.close();
  }
}

async function main(): Promise<void> {
  const runCount = option('runs', 100_000);
  const requests = option('requests', 200);
  const dir = await mkdtemp(join(tmpdir(), 'runledger-app-bench-'));
  const storage = await openSqliteStorage({ file: join(dir, 'runledger.sqlite') });
  const { rl, close } = await benchRunledger(storage, dir);
  const clock = systemClock();
  const signer = jwtSigner('bench-secret-'.padEnd(40, 'x'), 720, clock);
  const limiter = new StoredWindowLimiter(storage, clock, {
    name: 'bench',
    limit: 1000,
    windowMs: 60_000,
  });
  const { seen, middleware } = timings();
  const app = express()
    .use(middleware)
    .use(
      webApp({
        runledger: rl,
        sessions: sessions({
          runledger: rl,
          signer,
          jwtSecret: 'bench',
          jwtTtlHours: 720,
          cookies: { secure: false },
        }),
        blobs: await openFileBlobStore(join(dir, 'app-blobs')),
        publicOrigin: 'http://127.0.0.1',
        limits: { perEmail: limiter, perIp: limiter, verifyPerIp: limiter },
        formLimit: 1024 * 1024,
      }),
    );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { me, projectId } = await signUp(rl, 'bench@example.com');
    if (me.kind !== 'user') throw new Error('bench: not a person');
    const big = await bigRun(rl, me, projectId);
    const started = performance.now();
    await manyRuns(storage, me, big, runCount);
    console.log(
      `seeded ${runCount} runs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cookie = `runledger_session=${signer.sign({ sub: me.userId, org: me.orgId })}`;
    const second = (await rl.runs.list(me, { limit: 50 })).next;
    console.log(
      `page (${requests} requests each, SQLite)                     p50 ms   p95 ms   floor p50 ms   ÷ floor   HTML bytes   gzip bytes`,
    );
    for (const [name, path] of [
      ['run page: 200 checks, 50 evidence items', `/app/runs/${big}`],
      [`runs list, first page of ${runCount}`, '/app/runs'],
      ['runs list, second page (after=)', `/app/runs?after=${encodeURIComponent(second ?? '')}`],
      ['runs list, state=approved', '/app/runs?state=approved'],
      ['runs list, project filter', `/app/runs?project_id=${projectId}`],
    ] as const) {
      const { p50, p95, html } = await measure(`${base}${path}`, cookie, requests, seen);
      const floor = await bareFloor(html, requests);
      const cells = [
        p50.toFixed(2).padStart(6),
        p95.toFixed(2).padStart(6),
        floor.toFixed(2).padStart(12),
        (p50 / floor).toFixed(0).padStart(7),
        String(Buffer.byteLength(html)).padStart(10),
        String(gzipSync(html).length).padStart(10),
      ];
      console.log(`${name.padEnd(58)} ${cells.join('   ')}`);
    }
  } finally {
    server.close();
    await close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
