import { isInputError, VerifyError } from '../errors.js';
import { verifyExportFile, verifyRouterReceiptFiles } from '../io/verify-files.js';
import { loadTrustedKeys, parseJsonFile, readSmallFile } from '../io/keys.js';
import { loadWitnessPolicy } from '../io/witnesses.js';
import { verifyTlogProof } from '../tlog-proof/verify.js';
import type { WitnessPolicy } from '../witness/policy.js';
import { readLines } from '../io/lines.js';
import { parseExportHeader } from '../export/parse.js';
import type { ExportVerifyResult } from '../export/verify.js';
import { verifyExtends, type ConsistencyResult } from '../ledger/consistency.js';
import { verifySharedReceipt } from '../ledger/shared-receipt.js';
import type { TrustedKey } from '../note/keyring.js';
import { parseArgs, USAGE, UsageError, type CliCommand } from './args.js';
import { attestationCli } from './attestation.js';
import { consistencySummary, exportSummary, receiptsSummary, receiptSummary } from './summary.js';
import { tlogProofSummary, witnessLine } from './witness-summary.js';
import { fromHex } from '../hash/hex.js';
import { progressBar, type ProgressBar, type ProgressStream } from './progress.js';

export const EXIT_OK = 0;
export const EXIT_TAMPERED = 1;
export const EXIT_UNREADABLE = 2;

export interface CliStreams {
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  /** The environment (NO_COLOR, TERM); default process.env. */
  env?: Record<string, string | undefined>;
}

/** A progress bar for an export on a terminal, its total from the header; undefined elsewhere. */
async function exportProgress(path: string, io: CliStreams): Promise<ProgressBar | undefined> {
  if (io.stderr.isTTY !== true) return undefined;
  let total: number | undefined;
  try {
    total = (await exportHeaderOf(path))?.count;
  } catch {
    total = undefined; // verifying reports it
  }
  return progressBar(io.stderr, total, io.env ?? process.env, () => performance.now());
}

type Run = Exclude<CliCommand, { command: 'help' }>;

/** The first line of a file when it is an export header, else undefined (a checkpoint file). */
async function exportHeaderOf(path: string) {
  for await (const line of readLines(path)) {
    try {
      return parseExportHeader(line);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** OLD and NEW as exports (verified in full) or checkpoint files, then "NEW extends OLD". */
async function consistency(
  command: Extract<Run, { command: 'consistency' }>,
  keys: TrustedKey[] | undefined,
  witnesses: WitnessPolicy | undefined,
): Promise<{ result: ConsistencyResult; exports: ExportVerifyResult[] }> {
  const side = async (path: string, rootAtSize?: number) => {
    const header = await exportHeaderOf(path);
    if (header === undefined)
      return { checkpoint: await readSmallFile(path), orgId: undefined, exported: undefined };
    if (header.checkpoint === undefined)
      throw new VerifyError('bad_header', `${path} carries no checkpoint: nothing to compare`);
    const exported = await verifyExportFile(path, { keys, rootAtSize, witnesses });
    return {
      checkpoint: header.checkpoint,
      orgId: header.org_id,
      exported,
      fallbackTime: header.exported_at,
    };
  };
  const old = await side(command.old);
  const oldSize = old.exported?.checkpoint?.tree_size ?? sizeOf(old.checkpoint);
  const next = await side(command.new, oldSize);
  const orgId = old.orgId ?? next.orgId ?? orgOf(old.checkpoint);
  const exported = next.exported;
  const rootAt = exported?.merkle_root_at_size;
  const result = verifyExtends({
    old: { checkpoint: old.checkpoint },
    new: { checkpoint: next.checkpoint },
    orgId,
    keys,
    witnesses,
    ...(exported === undefined
      ? {
          proof:
            command.proof === undefined
              ? undefined
              : parseJsonFile(command.proof, await readSmallFile(command.proof)),
        }
      : {
          computed: {
            size: exported.receipts_checked,
            rootAtOldSize: rootAt === undefined ? null : fromHex(rootAt),
            root: fromHex(exported.merkle_root) as Uint8Array,
          },
        }),
  });
  return { result, exports: [old.exported, next.exported].filter((e) => e !== undefined) };
}

const sizeOf = (note: string) => Number(note.split('\n')[1]);
const orgOf = (note: string) => (note.split('\n')[0] ?? '').replace(/^.*\/orgs\//, '');

async function execute(command: Run, io: CliStreams): Promise<number> {
  const keys = await loadTrustedKeys(command.keys);
  const witnesses =
    command.command === 'receipts'
      ? undefined
      : loadWitnessPolicy(command.witnesses, command.witnessThreshold);
  const print = (json: unknown, text: string) =>
    io.stdout.write(command.json ? JSON.stringify(json) + '\n' : text);
  if (command.command === 'export') {
    const bar = await exportProgress(command.file, io);
    let result;
    try {
      result = await verifyExportFile(command.file, {
        strict: command.strict,
        receiptPrefix: command.prefix,
        expectedOrgId: command.org,
        keys,
        witnesses,
        ...(command.threads === undefined ? {} : { threads: command.threads }),
        ...(bar === undefined ? {} : { onProgress: (n) => bar.update(n), progressEvery: 1000 }),
      });
    } finally {
      bar?.clear();
    }
    print(result, exportSummary(command.file, result) + witnessLine(result.witnessed));
    return result.ok ? EXIT_OK : EXIT_TAMPERED;
  }
  if (command.command === 'receipt') {
    const share = parseJsonFile(command.file, await readSmallFile(command.file));
    const result = verifySharedReceipt(share, {
      keys,
      receiptPrefix: command.prefix,
      witnesses,
    });
    print(result, receiptSummary(command.file, result) + witnessLine(result.witnessed));
    return result.ok ? EXIT_OK : EXIT_TAMPERED;
  }
  if (command.command === 'consistency') {
    const { result, exports } = await consistency(command, keys, witnesses);
    const ok = result.ok && exports.every((e) => e.ok);
    const text =
      consistencySummary(result, command) +
      exports
        .filter((e) => !e.ok)
        .map(
          (e) =>
            `an export itself does not verify: run runledger-verify on it (${e.errors.length} findings)\n`,
        )
        .join('');
    print({ ...result, ok, exports }, text);
    return ok ? EXIT_OK : EXIT_TAMPERED;
  }
  if (command.command === 'tlog-proof') {
    const share =
      command.share === undefined
        ? undefined
        : parseJsonFile(command.share, await readSmallFile(command.share));
    const result = verifyTlogProof(await readSmallFile(command.file), { keys, witnesses, share });
    print(result, tlogProofSummary(command.file, result));
    return result.ok ? EXIT_OK : EXIT_TAMPERED;
  }
  const result = await verifyRouterReceiptFiles(command.paths, { keys });
  print(result, receiptsSummary(result));
  return result.ok ? EXIT_OK : EXIT_TAMPERED;
}

/** The whole CLI as a function of argv and two streams; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliStreams): Promise<number> {
  if (argv[0] === 'attestation') return attestationCli(argv.slice(1), io);
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
