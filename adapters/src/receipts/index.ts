export { openJsonlReceiptSink, receiptFileName, type JsonlReceiptSink } from './jsonl-sink.js';
export type { RouterAnchoring } from './anchor-writer.js';
