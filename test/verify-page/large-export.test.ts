import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatExportHeader, formatExportLine } from '@runledger/verify/export';
import { formatVkey, noteSigner } from '@runledger/verify/note';
import { ReceiptTree, signCheckpoint } from '@runledger/verify/ledger';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateChain, realisticPayload } from '../../verify-tool/src/testing/chain.js';
import { buildVerifyPage } from '../../verify-tool/src/web/build.js';
import { collectPageErrors, launchBrowser, VIEWPORTS } from '../helpers/browser.js';
import { readResult } from './page.js';

const TARGET_BYTES = 100 * 1024 * 1024;
const ORG = 'org_big';
const signer = noteSigner('runledger.example', new Uint8Array(32).fill(3));
const chain = (n: number) => generateChain(n, (seq, parent) => realisticPayload(ORG, seq, parent));

/** A signed export of at least 100 MB, written line by line (the chain is generated twice, never held). */
async function writeLargeExport(path: string): Promise<number> {
  const lineBytes = Buffer.byteLength(formatExportLine(chain(1).next().value!)) + 1;
  const count = Math.ceil(TARGET_BYTES / lineBytes) + 1000;
  const tree = new ReceiptTree();
  let head = '';
  for (const entry of chain(count)) {
    tree.add(entry.receipt_sha256);
    head = entry.receipt_sha256;
  }
  const checkpoint = signCheckpoint(
    {
      origin: `runledger.example/orgs/${ORG}`,
      size: count,
      rootHash: tree.root(),
      time: '2025-02-01T00:00:00.000Z',
    },
    signer,
  );
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write(
    formatExportHeader({
      org_id: ORG,
      exported_at: '2025-02-01T00:00:00.000Z',
      count,
      head_sha256: head,
      checkpoint,
    }),
  );
  for (const entry of chain(count)) await write(formatExportLine(entry));
  out.end();
  await once(out, 'finish');
  return count;
}

describe('a 100 MB export in the verify page', () => {
  let work: string;
  let exportPath: string;
  let count: number;
  let page: string;
  let browser: Browser;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'runledger-verify-large-'));
    exportPath = join(work, 'ledger.ndjson');
    count = await writeLargeExport(exportPath);
    page = `${(await buildVerifyPage(`${work}/page/`)).outDir}verify.html`;
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('verifies it streaming, with progress, never reading the file whole, in a small heap', async () => {
    expect((await stat(exportPath)).size).toBeGreaterThan(TARGET_BYTES);
    const tab = await browser.newPage({ viewport: VIEWPORTS.desktop });
    const errors = collectPageErrors(tab);
    // Record every read of a Blob as a whole, and every progress text the page shows.
    await tab.addInitScript(() => {
      const w = globalThis as unknown as {
        __wholeReads: number[];
        __progress: string[];
        Blob: { prototype: Record<string, (...a: unknown[]) => unknown> };
        FileReader: { prototype: Record<string, (...a: unknown[]) => unknown> };
        MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void };
        document: {
          getElementById(id: string): { textContent: string } | null;
          addEventListener(e: string, cb: () => void): void;
        };
      };
      w.__wholeReads = [];
      w.__progress = [];
      for (const name of ['text', 'arrayBuffer', 'bytes']) {
        const original = w.Blob.prototype[name];
        if (original === undefined) continue;
        w.Blob.prototype[name] = function (this: { size: number }, ...args: unknown[]) {
          w.__wholeReads.push(this.size);
          return original.apply(this, args);
        };
      }
      for (const name of [
        'readAsText',
        'readAsArrayBuffer',
        'readAsBinaryString',
        'readAsDataURL',
      ]) {
        const original = w.FileReader.prototype[name]!;
        w.FileReader.prototype[name] = function (this: unknown, blob: unknown, ...rest: unknown[]) {
          w.__wholeReads.push((blob as { size: number }).size);
          return original.call(this, blob, ...rest);
        };
      }
      w.document.addEventListener('DOMContentLoaded', () => {
        const text = w.document.getElementById('progress-text')!;
        new w.MutationObserver(() => w.__progress.push(text.textContent)).observe(text, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
    });
    await tab.goto(pathToFileURL(page).href);
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send('Performance.enable');
    const heapUsed = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
    };
    await tab.setInputFiles('#file', exportPath);
    await tab.fill('#keys', formatVkey(signer.name, signer.publicKey));
    const started = performance.now();
    await tab.click('#run');
    let peakHeap = await heapUsed();
    let done = false;
    const shown = readResult(tab, 280_000).finally(() => (done = true));
    while (!done) {
      peakHeap = Math.max(peakHeap, await heapUsed());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await shown;
    const seconds = (performance.now() - started) / 1000;
    expect(result.verdict).toBe(`INTACT: ${count} receipts, every check passed`);
    expect(result.authorship).toMatch(
      /^AUTHORSHIP VERIFIED: the checkpoint is signed by runledger.example/,
    );
    const wholeReads = await tab.evaluate<number[]>('__wholeReads');
    // Only the first 64 KiB are read whole, to tell an export from a share JSON.
    expect(Math.max(...wholeReads)).toBeLessThanOrEqual(64 * 1024);
    const progress = await tab.evaluate<string[]>('__progress');
    const percents = new Set(progress.map((p) => Number(/^(\d+)%/.exec(p)?.[1])));
    expect(percents.size).toBeGreaterThan(50);
    expect(progress.at(-1)).toMatch(/^100% \(10\d\.\d MB of 10\d\.\d MB\)$/);
    // The file as one string would be more than 100 MB of heap by itself.
    console.log(
      `100 MB export: ${count} receipts in ${seconds.toFixed(1)} s (not asserted); peak JS heap sampled ${(peakHeap / 1048576).toFixed(1)} MB`,
    );
    expect(peakHeap).toBeLessThan(64 * 1024 * 1024);
    expect(errors).toEqual([]);
    await tab.close();
  }, 300_000);
});
