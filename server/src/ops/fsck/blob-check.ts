import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFile } from '../backup/files.js';
import type { Findings } from './findings.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const FAN_OUT = /^[0-9a-f]{2}$/;

/** The blob files under DATA_DIR/blobs (`ab/<sha256>`), the upload spool left out. */
async function blobFiles(dir: string): Promise<Array<{ name: string; path: string }>> {
  const found: Array<{ name: string; path: string }> = [];
  const fans = await readdir(dir).catch(() => [] as string[]);
  for (const fan of fans.filter((name) => FAN_OUT.test(name)).sort()) {
    for (const name of (await readdir(join(dir, fan))).sort()) {
      found.push({ name, path: join(fan, name) });
    }
  }
  return found;
}

/**
 * Every blob file against the SHA-256 it is named for, and every blob the database refers to
 * against the store: a changed byte or a missing file is named by its path under DATA_DIR.
 */
export async function checkBlobs(
  dir: string,
  referenced: readonly string[],
  findings: Findings,
): Promise<number> {
  const files = await blobFiles(dir);
  const present = new Set<string>();
  for (const file of files) {
    const where = { file: join('blobs', file.path) };
    if (!SHA256_HEX.test(file.name) || file.path.slice(0, 2) !== file.name.slice(0, 2)) {
      findings.add({ ...where, code: 'blob_misnamed', message: 'not a blob address' });
      continue;
    }
    present.add(file.name);
    const { sha256 } = await hashFile(join(dir, file.path));
    if (sha256 !== file.name) {
      findings.add({
        ...where,
        code: 'blob_hash_mismatch',
        message: `its bytes hash to ${sha256}`,
      });
    }
  }
  for (const sha of referenced) {
    if (present.has(sha)) continue;
    findings.add({
      file: join('blobs', sha.slice(0, 2), sha),
      code: 'blob_missing',
      message: 'uploaded evidence refers to this blob, which the store does not hold',
    });
  }
  return files.length;
}
