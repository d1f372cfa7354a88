import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, StoredBlob } from '@runledger/core/ports';
import { asDiskFull, diskFullAware } from '../faults/disk-full.js';
import { durableRename, syncPath } from './durable.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface FileBlobStore extends BlobStore {
  /** Where prepare spools an upload; on the same file system as the blobs, so keep is a rename. */
  readonly spoolDir: string;
  /** The file that holds (or would hold) a blob; null for a malformed address. For inspection only. */
  pathOf(sha256: string): string | null;
}

/**
 * Content-addressed blobs under `dir/ab/<sha256>`. A blob is written to a spool file, synced, then renamed
 * into place, so a reader never sees a half-written blob and an acknowledged blob survives a crash.
 */
export async function openFileBlobStore(dir: string): Promise<FileBlobStore> {
  const spoolDir = join(dir, 'spool');
  await mkdir(spoolDir, { recursive: true });

  const pathOf = (sha256: string) =>
    SHA256_HEX.test(sha256) ? join(dir, sha256.slice(0, 2), sha256) : null;

  const adopt = (spoolFile: string, blob: StoredBlob) =>
    diskFullAware(() => moveIntoPlace(dir, spoolFile, blob));

  return {
    spoolDir,
    pathOf,
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const spoolFile = join(spoolDir, `put-${randomBytes(12).toString('hex')}`);
      try {
        await writeFile(spoolFile, bytes);
        return await moveIntoPlace(dir, spoolFile, { sha256, size: bytes.byteLength });
      } catch (error) {
        // Nothing half-written stays behind (a full disk leaves a short spool file).
        await rm(spoolFile, { force: true });
        throw asDiskFull(error);
      }
    },
    async prepare(source) {
      const { spoolFile, blob } = await spoolUpload(spoolDir, source);
      return {
        ...blob,
        keep: () => adopt(spoolFile, blob),
        discard: () => rm(spoolFile, { force: true }),
      };
    },
    async open(sha256) {
      const path = pathOf(sha256);
      if (path === null) return null;
      const stream = createReadStream(path);
      // Opened before returning, so a missing blob is null rather than a stream that fails later.
      return new Promise((resolve) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', () => resolve(null));
      });
    },
    async get(sha256) {
      const path = pathOf(sha256);
      if (path === null) return null;
      return readFile(path).then(
        (buffer) => new Uint8Array(buffer),
        () => null,
      );
    },
    async delete(sha256) {
      const path = pathOf(sha256);
      if (path !== null) await rm(path, { force: true });
    },
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Moves a synced spool file to the blob's place, unless the blob is there already. */
async function moveIntoPlace(
  dir: string,
  spoolFile: string,
  blob: StoredBlob,
): Promise<StoredBlob> {
  const target = join(dir, blob.sha256.slice(0, 2), blob.sha256);
  if (await exists(target)) {
    await rm(spoolFile, { force: true });
    return blob;
  }
  const created = await mkdir(join(dir, blob.sha256.slice(0, 2)), { recursive: true });
  // A new fan-out directory is itself a directory entry that must survive a power cut.
  if (created !== undefined) await syncPath(dir);
  await durableRename(spoolFile, target);
  return blob;
}

/** Writes an upload to a new spool file, hashing it on the way, and syncs it. */
async function spoolUpload(
  spoolDir: string,
  source: Parameters<BlobStore['prepare']>[0],
): Promise<{ spoolFile: string; blob: StoredBlob }> {
  const spoolFile = join(spoolDir, `upload-${randomBytes(12).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const spool = createWriteStream(spoolFile, { flags: 'wx' });
  try {
    // One pass: hashed while it is written, so a large upload is read once.
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          size += chunk.byteLength;
          yield chunk;
        }
      },
      spool,
    );
    await syncPath(spoolFile);
  } catch (error) {
    // The spool file is created when the stream opens, which may come after the source failed:
    // wait until the stream is closed, so the removal cannot run before the file exists.
    if (!spool.closed) await new Promise<void>((resolve) => spool.once('close', () => resolve()));
    await rm(spoolFile, { force: true });
    throw asDiskFull(error);
  }
  const blob = { sha256: hash.digest('hex'), size };
  return { spoolFile, blob };
}
