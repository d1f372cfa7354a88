/** Appends router receipts as checksummed JSON lines; resolves once the line is synced to disk. */
export interface ReceiptSink {
  append(receipt: Record<string, unknown>): Promise<Record<string, unknown>>;
}
