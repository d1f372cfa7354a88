export type { Clock } from './clock.js';
export type { Random } from './random.js';
export type { Mailer, MailMessage } from './mailer.js';
export type { BlobStore, PreparedBlob, StoredBlob } from './blob-store.js';
export type { ReceiptSink, RouterReceiptInput, RouterReceiptLine } from './receipt-sink.js';
export type * from './storage.js';
export type * from './router-storage.js';
export type { CheckpointSigner } from './checkpoint-signer.js';
export { lockKeys } from './lock-keys.js';
