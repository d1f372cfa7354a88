/** Content-addressed file storage: a blob is named by the SHA-256 of its bytes. */
export interface StoredBlob {
  sha256: string;
  size: number;
}

/** Bytes the store has received, hashed and synced, but not added yet. */
export interface PreparedBlob extends StoredBlob {
  /** Adds the bytes under their address (a no-op when the address is already stored). */
  keep(): Promise<StoredBlob>;
  /** Drops the bytes; nothing of them stays. */
  discard(): Promise<void>;
}

export interface BlobStore {
  /** Writes the bytes durably and returns their address; writing the same bytes twice is a no-op. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /**
   * Reads a stream (an upload as it arrives) into the store's own spool, hashing it on the way and
   * syncing it at the end, without adding it yet: the slow part, kept out of storage transactions.
   * If the stream fails, nothing is kept and the error propagates.
   */
  prepare(source: AsyncIterable<Uint8Array>): Promise<PreparedBlob>;
  get(sha256: string): Promise<Uint8Array | null>;
  /**
   * The blob's bytes as a stream, for sending a large file without holding it in memory; null for an
   * unknown or malformed address (known before the first byte, so a caller can still answer 404).
   */
  open(sha256: string): Promise<AsyncIterable<Uint8Array> | null>;
  delete(sha256: string): Promise<void>;
}
