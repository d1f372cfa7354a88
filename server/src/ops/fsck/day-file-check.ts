import { join } from 'node:path';
import { ROUTER_DAY_FILE } from '@runledger/verify/router';
import { verifyRouterReceiptFiles, type TrustedKey } from '@runledger/verify';
import { readdir } from 'node:fs/promises';
import type { Findings } from './findings.js';

/**
 * The router day files under DATA_DIR/receipts through the verify package (each line's checksum
 * and link, each file against its signed anchor). Check them with the writers stopped: a running
 * instance's anchor lags its file by the batches in flight (docs/checkpoints.md).
 */
export async function checkDayFiles(
  dataDir: string,
  keys: readonly TrustedKey[],
  findings: Findings,
): Promise<{ files: number; lines: number }> {
  const dir = join(dataDir, 'receipts');
  const names = await readdir(dir).catch(() => [] as string[]);
  if (!names.some((name) => ROUTER_DAY_FILE.test(name))) return { files: 0, lines: 0 };
  const result = await verifyRouterReceiptFiles(dir, { keys, maxErrors: 1000 });
  for (const error of result.errors) {
    findings.add({
      file: join(
        'receipts',
        error.file.startsWith(dir) ? error.file.slice(dir.length + 1) : error.file,
      ),
      line: error.line,
      code: error.code,
      message: error.message,
    });
  }
  return { files: result.files_checked, lines: result.receipts_checked };
}
