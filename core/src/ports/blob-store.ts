/** Content-addressed file storage: a blob is named by the SHA-256 of its bytes. */
export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface BlobStore {
  /** Writes the bytes durably and returns their address; writing the same bytes twice is a no-op. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /** Streams a file that already sits on disk (an upload spool) into the store. */
  putFile(path: string): Promise<StoredBlob>;
  get(sha256: string): Promise<Uint8Array | null>;
  delete(sha256: string): Promise<void>;
}
