import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { PAYLOAD_KEY } from '../export/parse.js';
import {
  ExportVerifier,
  type ExportVerifyOptions,
  type ExportVerifyResult,
} from '../export/verify.js';
import { sha256Hex } from '../hash/sha256.js';
import type { Authorship } from '../ledger/signed-checkpoint.js';
import type { TrustedKey } from '../note/keyring.js';
import { checkRouterAnchor, routerAnchorFileName } from '../router/anchor.js';
import {
  mergeRouterResults,
  verifyRouterReceiptLines,
  type RouterVerifyResult,
} from '../router/verify.js';
import { expandReceiptPaths, forEachLineBytes, readLines } from './lines.js';

const PAYLOAD_KEY_BYTES = Buffer.from(PAYLOAD_KEY, 'utf8');

/** Verifies an NDJSON export file, streaming. Throws VerifyError for unreadable or truncated input. */
export async function verifyExportFile(
  path: string,
  options: ExportVerifyOptions = {},
): Promise<ExportVerifyResult> {
  const verifier = new ExportVerifier(options);
  await forEachLineBytes(path, (buffer, start, end) => {
    const text = buffer.toString('utf8', start, end);
    // Hash the payload's bytes straight from the buffer: same bytes as the text's payload slice.
    const at = buffer.indexOf(PAYLOAD_KEY_BYTES, start);
    const payloadSha256 =
      at > start && at < end && buffer[end - 1] === 0x7d
        ? sha256Hex(buffer.subarray(at + PAYLOAD_KEY_BYTES.length, end - 1))
        : undefined;
    verifier.push(payloadSha256 === undefined ? { text } : { text, payloadSha256 });
  });
  return verifier.finish();
}

export interface RouterFilesResult extends RouterVerifyResult {
  /** `verified` when every file's anchor is signed by a supplied key valid at its time. */
  authorship: Authorship['status'];
  /** Files written before anchors (no instance in the name) that have none: cuts go unseen there. */
  unanchored_files: string[];
}

async function readAnchor(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Verifies router receipt files: each path is a file, or a directory whose `*.receipts.jsonl`
 * files (any instances') are all checked in name order. Each file is its own chain and must match
 * the anchor beside it. Findings name the file by its path.
 */
export async function verifyRouterReceiptFiles(
  pathsOrDir: string | readonly string[],
  options: { maxErrors?: number; keys?: readonly TrustedKey[] } = {},
): Promise<RouterFilesResult> {
  const files = await expandReceiptPaths(
    typeof pathsOrDir === 'string' ? [pathsOrDir] : pathsOrDir,
  );
  const results: RouterVerifyResult[] = [];
  const statuses = new Set<Authorship['status']>();
  const unanchored: string[] = [];
  for (const file of files) {
    const result = await verifyRouterReceiptLines(readLines(file), {
      maxErrors: options.maxErrors,
      fileName: file,
    });
    const anchor = checkRouterAnchor(
      await readAnchor(routerAnchorFileName(file)),
      {
        path: file,
        name: basename(file),
        lines: result.receipts_checked,
        headChecksum: result.head_checksum_sha256,
      },
      options.keys,
    );
    if (anchor.authorship.status === 'no_checkpoint') unanchored.push(file);
    else statuses.add(anchor.authorship.status);
    results.push({
      ...result,
      ok: result.ok && anchor.errors.length === 0,
      errors: [...result.errors, ...anchor.errors],
    });
  }
  const merged = mergeRouterResults(results);
  const authorship: Authorship['status'] =
    statuses.size === 0
      ? 'no_checkpoint'
      : statuses.size === 1
        ? [...statuses][0]!
        : statuses.has('failed')
          ? 'failed'
          : 'not_checked';
  return { ...merged, authorship, unanchored_files: unanchored };
}
