import type { RunledgerConfig } from './config.js';
import type { BlobStore } from './ports/blob-store.js';
import type { CheckpointSigner } from './ports/checkpoint-signer.js';
import type { Clock } from './ports/clock.js';
import type { Mailer } from './ports/mailer.js';
import type { Random } from './ports/random.js';
import type { ReceiptSink } from './ports/receipt-sink.js';
import type { Storage } from './ports/storage.js';

export interface RunledgerPorts {
  storage: Storage;
  clock: Clock;
  random: Random;
  mailer: Mailer;
  /** Where router receipts go (the JSONL files under DATA_DIR/receipts). */
  receiptSink: ReceiptSink;
  /** Where uploaded evidence files go (content-addressed). */
  blobs: BlobStore;
  /** Signs the checkpoints of the organizations' Merkle trees (docs/checkpoints.md). */
  checkpointSigner: CheckpointSigner;
}

/** What every use-case factory takes: the ports and the configuration. */
export type Deps = RunledgerPorts & { config: RunledgerConfig };
