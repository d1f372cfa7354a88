import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileBlobStore, type FileBlobStore } from './blob-store.js';

describe('file blob store', () => {
  let dir: string;
  let store: FileBlobStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-blobs-'));
    store = await openFileBlobStore(dir);
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('names a blob by the SHA-256 of its bytes and reads it back', async () => {
    const bytes = new TextEncoder().encode('evidence: the agent ran three steps');
    const blob = await store.put(bytes);
    expect(blob).toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.byteLength,
    });
    expect(Buffer.from((await store.get(blob.sha256))!).toString()).toBe(
      'evidence: the agent ran three steps',
    );
  });

  it('hashes a spooled upload first and adds it only on commit, by rename, leaving the spool empty', async () => {
    const spooled = join(store.spoolDir, 'upload-1');
    await writeFile(spooled, Buffer.alloc(70_000, 7));
    const prepared = await store.prepareFile(spooled);
    expect(prepared.size).toBe(70_000);
    expect(await store.get(prepared.sha256)).toBeNull();
    const blob = await prepared.commit();
    expect(await readdir(store.spoolDir)).toEqual([]);
    expect((await store.get(blob.sha256))!.byteLength).toBe(70_000);
  });

  it('stores the same bytes once', async () => {
    const a = await store.put(new Uint8Array([1, 2, 3]));
    const b = await store.put(new Uint8Array([1, 2, 3]));
    expect(a).toEqual(b);
    expect(await readdir(join(dir, a.sha256.slice(0, 2)))).toEqual([a.sha256]);
    expect(await readdir(store.spoolDir)).toEqual([]);
  });

  it('answers null for an unknown or malformed address instead of touching the file system', async () => {
    expect(await store.get('0'.repeat(64))).toBeNull();
    expect(await store.get('../../etc/passwd')).toBeNull();
    expect(store.pathOf('../x')).toBeNull();
  });

  it('discards a prepared upload without adding it', async () => {
    const spooled = join(store.spoolDir, 'upload-2');
    await writeFile(spooled, 'never kept');
    const prepared = await store.prepareFile(spooled);
    await prepared.discard();
    expect(await readdir(store.spoolDir)).toEqual([]);
    expect(await store.get(prepared.sha256)).toBeNull();
  });

  it('deletes a blob', async () => {
    const blob = await store.put(new Uint8Array([9]));
    await store.delete(blob.sha256);
    expect(await store.get(blob.sha256)).toBeNull();
  });
});
