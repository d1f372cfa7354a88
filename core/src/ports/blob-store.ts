/** Content-addressed file storage: a blob is named by the SHA-256 of its bytes. */
export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface PreparedBlob extends StoredBlob {
  commit(): Promise<StoredBlob>;
  discard(): Promise<void>;
}

export interface BlobStore {
  /** Writes the bytes durably and returns their address; writing the same bytes twice is a no-op. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /**
   * Hashes and syncs a file that already sits on disk (an upload spool) without adding it yet: the
   * slow part, kept out of storage transactions. `commit` then moves it into the store (a rename);
   * `discard` drops it.
   */
  prepareFile(path: string): Promise<PreparedBlob>;
  get(sha256: string): Promise<Uint8Array | null>;
  delete(sha256: string): Promise<void>;
}
