import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
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

  it('hashes a streamed upload first and adds it only on commit, by rename, leaving the spool empty', async () => {
    const chunks = [Buffer.alloc(30_000, 7), Buffer.alloc(40_000, 7)];
    const prepared = await store.prepare(Readable.from(chunks));
    expect(prepared.size).toBe(70_000);
    expect(prepared.sha256).toBe(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
    expect(await store.get(prepared.sha256)).toBeNull();
    const blob = await prepared.keep();
    expect(await readdir(store.spoolDir)).toEqual([]);
    expect((await store.get(blob.sha256))!.byteLength).toBe(70_000);
  });

  it('names streamed bytes as put names them, however they are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }),
        async (chunks) => {
          const prepared = await store.prepare(Readable.from(chunks.map((c) => Buffer.from(c))));
          const whole = new Uint8Array(Buffer.concat(chunks));
          expect({ sha256: prepared.sha256, size: prepared.size }).toEqual(await store.put(whole));
          await prepared.discard();
        },
      ),
      { numRuns: 40 },
    );
    expect(await readdir(store.spoolDir)).toEqual([]);
  });

  it('keeps nothing of a stream that fails part way', async () => {
    async function* failing() {
      yield Buffer.from('the first part arrives');
      throw new Error('client went away');
    }
    await expect(store.prepare(failing())).rejects.toThrow('client went away');
    expect(await readdir(store.spoolDir)).toEqual([]);
  });

  it('streams a blob back, and answers null for an unknown or malformed address', async () => {
    const blob = await store.put(new TextEncoder().encode('streamed back'));
    const stream = await store.open(blob.sha256);
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream!) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('streamed back');
    expect(await store.open('0'.repeat(64))).toBeNull();
    expect(await store.open('../../etc/passwd')).toBeNull();
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
    const prepared = await store.prepare(Readable.from([Buffer.from('never kept')]));
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
