import type { Storage } from '@runledger/core/ports';
import { Gauge, type Registry } from 'prom-client';

/** How many of the largest ledgers get a series of their own: the org_id label stays bounded. */
export const LARGEST_LEDGERS = 10;

/**
 * Figures read from storage when /metrics is scraped: the tribunal's queue and the ledgers' sizes.
 * Ledger sizes per org would be one series per organization; only the largest LARGEST_LEDGERS get
 * one, the rest are in the totals.
 */
export function registerStorageGauges(registry: Registry, storage: Storage): void {
  const registers = [registry];
  const figures = () =>
    storage.read(async (tx) => ({
      queue: await tx.operations.tribunalQueue(),
      ledgers: await tx.operations.ledgerSizes(),
    }));
  // One read per scrape, shared by the gauges below.
  let scrape: Promise<Awaited<ReturnType<typeof figures>>> | null = null;
  const read = () => {
    scrape ??= figures().finally(() => setImmediate(() => (scrape = null)));
    return scrape;
  };

  new Gauge({
    name: 'runledger_tribunal_tasks',
    help: 'Grading tasks waiting for a runner (queued) and being graded (claimed)',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const { queue } = await read();
      this.set({ status: 'queued' }, queue.queued);
      this.set({ status: 'claimed' }, queue.claimed);
    },
  });
  new Gauge({
    name: 'runledger_ledger_receipts',
    help: `Receipts in each of the ${LARGEST_LEDGERS} largest ledgers, by org_id`,
    labelNames: ['org_id'] as const,
    registers,
    async collect() {
      const { ledgers } = await read();
      this.reset();
      const largest = [...ledgers].sort(
        (a, b) => b.receipts - a.receipts || a.org_id.localeCompare(b.org_id),
      );
      for (const ledger of largest.slice(0, LARGEST_LEDGERS)) {
        this.set({ org_id: ledger.org_id }, ledger.receipts);
      }
    },
  });
  new Gauge({
    name: 'runledger_ledger_receipts_all',
    help: 'Receipts in every ledger together',
    registers,
    async collect() {
      const { ledgers } = await read();
      this.set(ledgers.reduce((sum, ledger) => sum + ledger.receipts, 0));
    },
  });
  new Gauge({
    name: 'runledger_ledgers',
    help: 'Organizations with at least one receipt',
    registers,
    async collect() {
      this.set((await read()).ledgers.length);
    },
  });
}
