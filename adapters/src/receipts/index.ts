export { openJsonlReceiptSink, receiptFileName, type JsonlReceiptSink } from './jsonl-sink.js';
