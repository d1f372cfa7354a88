import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointSigner } from '@runledger/core/ports';
import {
  FIRST_PREV_CHECKSUM,
  ROUTER_DAY_FILE,
  routerAnchorFileName,
  signRouterAnchor,
} from '@runledger/verify/router';
import { exists, syncFile } from './files.js';
import type { DayFileEntry } from './manifest.js';

/** What re-signs the anchors of copied day files: the deployment's key and host. */
export interface AnchorSigning {
  signer: CheckpointSigner;
  host: string;
  now: Date;
}

/** A line's checksum_sha256; null when it has none (fsck reports such a line). */
function checksumOf(line: string): string | null {
  try {
    return (JSON.parse(line) as { checksum_sha256?: string }).checksum_sha256 ?? null;
  } catch {
    return null;
  }
}

/** The file's complete lines (a line still being appended is left out). */
function completeLines(bytes: Buffer): { text: Buffer; lines: number; head: string | null } {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = bytes.subarray(0, end);
  if (end === 0) return { text, lines: 0, head: null };
  const body = text.toString('utf8');
  const lines = body.split('\n').length - 1;
  const last = body.slice(body.lastIndexOf('\n', end - 2) + 1, end - 1);
  return { text, lines, head: checksumOf(last) };
}

/**
 * Copies each router day file's complete lines from `from` to `to` (read once: the prefix written
 * so far), and beside each file that had an anchor a new anchor for exactly that prefix, signed as
 * the sink signs them, so the copy verifies on its own. Lines are never rewritten.
 */
export async function copyDayFiles(
  from: string,
  to: string,
  signing: AnchorSigning,
): Promise<DayFileEntry[]> {
  const names = (await readdir(from).catch(() => [] as string[]))
    .filter((name) => ROUTER_DAY_FILE.test(name))
    .sort();
  const entries: DayFileEntry[] = [];
  for (const name of names) {
    const { text, lines, head } = completeLines(await readFile(join(from, name)));
    await writeFile(join(to, name), text);
    await syncFile(join(to, name));
    if (await exists(join(from, routerAnchorFileName(name)))) {
      const note = signRouterAnchor(
        {
          host: signing.host,
          dayFileName: name,
          lineCount: lines,
          headChecksum: head ?? FIRST_PREV_CHECKSUM,
          time: signing.now,
        },
        signing.signer,
      );
      await writeFile(join(to, routerAnchorFileName(name)), note);
    }
    entries.push({ file: name, lines, head_checksum_sha256: head });
  }
  return entries;
}
