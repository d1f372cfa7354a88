import type { ReceiptSink, RouterReceiptInput } from '../ports/receipt-sink.js';
import type { Storage, WriteTransaction } from '../ports/storage.js';

/** Lines read back per day file at recovery beyond the rows left: covers every append in flight at a crash. */
export const RECOVERY_WINDOW_LINES = 10_000;
const FLUSH_BATCH = 1_000;

/**
 * Receipts and the database agree across a crash: a change and its receipts are written in one
 * transaction (the receipts as outbox rows), then each line is appended durably and its row deleted. A crash between
 * the two leaves a row that start-up recovery appends, unless its line already made it to the file.
 */
export interface ReceiptOutbox {
  /** Runs `work` in one write transaction; the receipts it collects are written with it and are durable when this resolves (their outbox rows are deleted just after, in the background). */
  write<T>(work: (tx: WriteTransaction, receipts: RouterReceiptInput[]) => Promise<T>): Promise<T>;
  /** Appends rows left by a crash, skipping any whose receipt_id is already in its day file; returns how many were appended. */
  flush(): Promise<number>;
}

export function receiptOutbox(storage: Storage, sink: ReceiptSink): ReceiptOutbox {
  // Rows whose append this process still owes: a concurrent flush must leave them alone.
  const inFlight = new Set<string>();
  // Rows whose lines are durable are deleted in batches (Storage.writeBatches): those published
  // while a delete runs wait and go together in the next transaction, not one each.
  const deleteRows = storage.writeBatches<readonly string[], void>(async (tx, _key, asks) => {
    await tx.routerOutbox.delete(asks.flat());
    return asks.map(() => ({ ok: true as const, value: undefined }));
  });

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
    // batch without holding up the caller (a third wait for durable storage on every router call);
    // a crash before it is durable leaves rows that recovery finds already in their day file and skips.
    void deleteRows(
      'outbox',
      receipts.map((r) => r.receipt_id),
    )
      .catch(() => undefined)
      .finally(done);
  }

  return {
    async write(work) {
      let receipts: RouterReceiptInput[] = [];
      // A transaction that was undone owes no lines: its rows never existed.
      const forget = () => receipts.forEach((r) => inFlight.delete(r.receipt_id));
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await storage.write(async (tx) => {
          // An earlier attempt's (an engine may run a transaction again after a serialization failure).
          forget();
          receipts = [];
          const value = await work(tx, receipts);
          // The change and its outbox rows are kept together: the rows end the transaction.
          for (const r of receipts) {
            tx.endWith(tx.routerOutbox.insert(r));
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

    flush: () => flushLeftRows(storage, sink, inFlight),
  };
}

/** The receipt ids already in each day file among the last lines that could hold `rows`. */
async function writtenIds(
  sink: ReceiptSink,
  rows: readonly RouterReceiptInput[],
): Promise<Map<string, Set<string>>> {
  const perDate = new Map<string, number>();
  for (const r of rows) {
    const date = r.created_at.slice(0, 10);
    perDate.set(date, (perDate.get(date) ?? 0) + 1);
  }
  const written = new Map<string, Set<string>>();
  for (const [date, count] of perDate) {
    written.set(date, await sink.recentReceiptIds(date, count + RECOVERY_WINDOW_LINES));
  }
  return written;
}

/** ReceiptOutbox.flush: appends the rows a crash left (none this process still owes), then deletes them. */
async function flushLeftRows(
  storage: Storage,
  sink: ReceiptSink,
  inFlight: ReadonlySet<string>,
): Promise<number> {
  let appended = 0;
  const seen = new Set<string>();
  for (;;) {
    const rows = (
      await storage.read((tx) => tx.routerOutbox.list(FLUSH_BATCH + inFlight.size))
    ).filter((r) => !inFlight.has(r.receipt_id) && !seen.has(r.receipt_id));
    if (rows.length === 0) return appended;
    const written = await writtenIds(sink, rows);
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
}
