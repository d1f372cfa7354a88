import {
  verifyExportLines,
  type ExportVerifyOptions,
  type ExportVerifyResult,
} from '../export/verify.js';
import {
  mergeRouterResults,
  verifyRouterReceiptLines,
  type RouterVerifyResult,
} from '../router/verify.js';
import { expandReceiptPaths, readLines } from './lines.js';

/** Verifies an NDJSON export file, streaming. Throws VerifyError for unreadable or truncated input. */
export function verifyExportFile(
  path: string,
  options: ExportVerifyOptions = {},
): Promise<ExportVerifyResult> {
  return verifyExportLines(readLines(path), options);
}

/**
 * Verifies router receipt files: each path is a file, or a directory whose `*.receipts.jsonl`
 * files are all checked in date order. Each file is its own chain. Findings name the file by
 * its path.
 */
export async function verifyRouterReceiptFiles(
  pathsOrDir: string | readonly string[],
  options: { maxErrors?: number } = {},
): Promise<RouterVerifyResult> {
  const files = await expandReceiptPaths(
    typeof pathsOrDir === 'string' ? [pathsOrDir] : pathsOrDir,
  );
  const results: RouterVerifyResult[] = [];
  for (const file of files) {
    results.push(await verifyRouterReceiptLines(readLines(file), { ...options, fileName: file }));
  }
  return mergeRouterResults(results);
}
