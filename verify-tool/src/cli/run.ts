import { isInputError } from '../errors.js';
import { verifyExportFile, verifyRouterReceiptFiles } from '../io/verify-files.js';
import type { ExportVerifyResult } from '../export/verify.js';
import type { RouterVerifyResult } from '../router/verify.js';
import { parseArgs, USAGE, UsageError, type CliCommand } from './args.js';

export const EXIT_OK = 0;
export const EXIT_TAMPERED = 1;
export const EXIT_UNREADABLE = 2;

export interface CliStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

function progress(stderr: CliStreams['stderr']): ((n: number) => void) | undefined {
  if (stderr.isTTY !== true) return undefined;
  return (n) => stderr.write(`\rverified ${n.toLocaleString('en-US')} receipts`);
}

function exportSummary(file: string, result: ExportVerifyResult): string {
  const lines = [
    `${file}: org ${result.header.org_id}, exported ${result.header.exported_at}`,
    `${result.receipts_checked} receipts checked, head ${result.header.head_sha256}`,
  ];
  if (result.ok) lines.push('OK: every receipt hash, link and sequence number checks out');
  else {
    lines.push(`TAMPERED: ${result.errors.length + result.errors_omitted} findings`);
    for (const e of result.errors) {
      const where = [
        e.line === undefined ? null : `line ${e.line}`,
        e.receipt_id ?? '(no receipt id)',
        e.org_seq === null ? null : `org_seq ${e.org_seq}`,
      ].filter((part) => part !== null);
      lines.push(`  ${e.code}  ${where.join('  ')}: ${e.message}`);
    }
    if (result.errors_omitted > 0) lines.push(`  ... and ${result.errors_omitted} more`);
  }
  return lines.join('\n') + '\n';
}

function receiptsSummary(result: RouterVerifyResult): string {
  const lines = [
    `${result.files_checked} files, ${result.receipts_checked} router receipts checked`,
  ];
  if (result.ok) lines.push('OK: every checksum, link and seq checks out');
  else {
    lines.push(`TAMPERED: ${result.errors.length + result.errors_omitted} findings`);
    for (const e of result.errors) {
      lines.push(
        `  ${e.code}  ${e.file}:${e.line}  ${e.receipt_id ?? '(no receipt id)'}: ${e.message}`,
      );
    }
    if (result.errors_omitted > 0) lines.push(`  ... and ${result.errors_omitted} more`);
  }
  return lines.join('\n') + '\n';
}

async function execute(
  command: Exclude<CliCommand, { command: 'help' }>,
  io: CliStreams,
): Promise<number> {
  const onProgress = progress(io.stderr);
  if (command.command === 'export') {
    const result = await verifyExportFile(command.file, {
      strict: command.strict,
      receiptPrefix: command.prefix,
      expectedOrgId: command.org,
      onProgress,
    });
    if (onProgress !== undefined) io.stderr.write('\n');
    io.stdout.write(
      command.json ? JSON.stringify(result) + '\n' : exportSummary(command.file, result),
    );
    return result.ok ? EXIT_OK : EXIT_TAMPERED;
  }
  const result = await verifyRouterReceiptFiles(command.paths);
  io.stdout.write(command.json ? JSON.stringify(result) + '\n' : receiptsSummary(result));
  return result.ok ? EXIT_OK : EXIT_TAMPERED;
}

/** The whole CLI as a function of argv and two streams; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliStreams): Promise<number> {
  let command: CliCommand;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`runledger-verify: ${error.message}\n${USAGE}\n`);
    return EXIT_UNREADABLE;
  }
  if (command.command === 'help') {
    io.stdout.write(USAGE + '\n');
    return EXIT_OK;
  }
  try {
    return await execute(command, io);
  } catch (error) {
    if (!isInputError(error)) throw error;
    if (command.json) {
      io.stdout.write(
        JSON.stringify({ ok: false, error: { code: error.code, message: error.message } }) + '\n',
      );
    }
    io.stderr.write(`runledger-verify: ${error.message}\n`);
    return EXIT_UNREADABLE;
  }
}
