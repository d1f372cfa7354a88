import type { ReceiptSink, RouterReceiptInput } from '../ports/receipt-sink.js';
import type { Storage, WriteTransaction } from '../ports/storage.js';
import { keyedBatches } from '../keyed-batches.js';

/** Lines read back per day file at recovery beyond the rows left: covers every append in flight at a crash. */
export const RECOVERY_WINDOW_LINES = 10_000;
const FLUSH_BATCH = 1_000;

/**
 * Receipts and the database agree across a crash: a change and its receipts commit together (the
 * receipts as outbox rows), then each line is appended durably and its row deleted. A crash between
 * the two leaves a row that start-up recovery appends, unless its line already made it to the file.
 */
export interface ReceiptOutbox {
  /** Runs `work` in one transaction; the receipts it collects commit with it and are durable when this resolves (their outbox rows are deleted just after, in the background). */
  commit<T>(work: (tx: WriteTransaction, receipts: RouterReceiptInput[]) => Promise<T>): Promise<T>;
  /** Appends rows left by a crash, skipping any whose receipt_id is already in its day file; returns how many were appended. */
  flush(): Promise<number>;
}

/** Outbox rows deleted per transaction at most. */
const DELETE_BATCH = 1_000;

export function receiptOutbox(storage: Storage, sink: ReceiptSink): ReceiptOutbox {
  // Rows whose append this process still owes: a concurrent flush must leave them alone.
  const inFlight = new Set<string>();
  // Rows whose lines are durable are deleted in batches: those published while a delete runs wait
  // and go together in the next transaction (one on PostgreSQL for many router calls, not one each).
  const deleteRows = keyedBatches<readonly string[], void>(DELETE_BATCH, (_key, asks) =>
    storage.write(async (tx) => {
      await tx.routerOutbox.delete(asks.flat());
      return asks.map(() => ({ ok: true as const, value: undefined }));
    }),
  );

  async function publish(receipts: RouterReceiptInput[]): Promise<void> {
    if (receipts.length === 0) return;
    const done = () => receipts.forEach((r) => inFlight.delete(r.receipt_id));
    try {
      // append queues synchronously, so lines land in the order the change produced them.
      await Promise.all(receipts.map((r) => sink.append(r)));
    } catch (error) {
      done();
      throw error;
    }
    // The lines are durable: the rows only remind a restart now. Their delete joins the next delete
    // batch without holding up the caller (a third wait for a commit on every router call); a
    // crash before it commits leaves rows that recovery finds already in their day file and skips.
    void deleteRows(
      'outbox',
      receipts.map((r) => r.receipt_id),
    )
      .catch(() => undefined)
      .finally(done);
  }

  return {
    async commit(work) {
      let receipts: RouterReceiptInput[] = [];
      // A transaction that did not commit owes no lines: its rows never existed.
      const forget = () => receipts.forEach((r) => inFlight.delete(r.receipt_id));
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await storage.write(async (tx) => {
          // An earlier attempt's (PostgreSQL runs a transaction again after a serialization failure).
          forget();
          receipts = [];
          const value = await work(tx, receipts);
          // The transaction's last statements, sent with its COMMIT: on PostgreSQL one round trip for
          // the rows and the COMMIT, however many receipts the change made.
          for (const r of receipts) {
            tx.closeWith(tx.routerOutbox.insert(r));
            inFlight.add(r.receipt_id);
          }
          return value;
        });
      } catch (error) {
        forget();
        throw error;
      }
      await publish(receipts);
      return result;
    },

    async flush() {
      let appended = 0;
      const seen = new Set<string>();
      for (;;) {
        const rows = (
          await storage.read((tx) => tx.routerOutbox.list(FLUSH_BATCH + inFlight.size))
        ).filter((r) => !inFlight.has(r.receipt_id) && !seen.has(r.receipt_id));
        if (rows.length === 0) return appended;
        const perDate = new Map<string, number>();
        for (const r of rows) {
          const date = r.created_at.slice(0, 10);
          perDate.set(date, (perDate.get(date) ?? 0) + 1);
        }
        const written = new Map<string, Set<string>>();
        for (const [date, count] of perDate) {
          written.set(date, await sink.recentReceiptIds(date, count + RECOVERY_WINDOW_LINES));
        }
        for (const r of rows) {
          seen.add(r.receipt_id);
          if (written.get(r.created_at.slice(0, 10))?.has(r.receipt_id)) continue;
          await sink.append(r);
          appended += 1;
        }
        await storage.write(async (tx) => {
          await tx.routerOutbox.delete(rows.map((r) => r.receipt_id));
        });
      }
    },
  };
}
