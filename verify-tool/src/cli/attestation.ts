import { verifyAttestation, type AttestationResult } from '../attestation/verify.js';
import { isInputError } from '../errors.js';
import { loadTrustedKeys, parseJsonFile, readSmallFile } from '../io/keys.js';
import { UsageError } from './args.js';
import { authorshipLine } from './summary.js';

/**
 * `runledger-verify attestation --key K [--share SHARE.json] [--json] FILE`: a receipt's DSSE
 * envelope checked offline (docs/attestations.md). The key is required: an envelope's signature
 * means nothing without the key it should be by.
 */
export const ATTESTATION_USAGE =
  '  runledger-verify attestation --key K [--share SHARE.json] [--json] ATTESTATION.json';

interface AttestationCommand {
  file: string;
  keys: string[];
  share: string | undefined;
  json: boolean;
}

export function parseAttestationArgs(argv: readonly string[]): AttestationCommand {
  const keys: string[] = [];
  const files: string[] = [];
  let share: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const value = () => {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      i += 1;
      return next;
    };
    if (arg === '--json') json = true;
    else if (arg === '--key') keys.push(value());
    else if (arg === '--share') share = value();
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (keys.length === 0) throw new UsageError('attestation needs --key (a vkey or keys.json)');
  if (files.length !== 1) throw new UsageError('attestation needs exactly one envelope file');
  return { file: files[0] as string, keys, share, json };
}

export function attestationSummary(file: string, r: AttestationResult): string {
  const lines = [
    `${file}: receipt ${r.receipt_id ?? '(unreadable)'}, verificationResult ${r.verification_result ?? '-'}`,
  ];
  if (r.checkpoint !== null)
    lines.push(`checkpoint ${r.checkpoint.origin}, size ${r.checkpoint.tree_size}`);
  if (r.ok) {
    lines.push(
      'OK: the envelope signature, the statement, and the receipt’s inclusion in the signed checkpoint check out' +
        (r.share_checked ? '; the statement states the shared receipt' : ''),
    );
  } else {
    lines.push(`TAMPERED: ${r.findings.length} findings`);
    for (const f of r.findings) lines.push(`  ${f.code}: ${f.message}`);
  }
  if (!r.share_checked)
    lines.push('RECEIPT NOT COMPARED: give --share share.json to compare with the receipt itself');
  lines.push(authorshipLine(r.authorship));
  return lines.join('\n') + '\n';
}

/** Runs the subcommand; returns 0 (intact) or 1 (tampered); input errors throw VerifyError. */
async function runAttestation(
  command: AttestationCommand,
  write: (text: string) => unknown,
): Promise<number> {
  const keys = (await loadTrustedKeys(command.keys)) ?? [];
  const envelope = parseJsonFile(command.file, await readSmallFile(command.file));
  const share =
    command.share === undefined
      ? undefined
      : parseJsonFile(command.share, await readSmallFile(command.share));
  const result = verifyAttestation(envelope, { keys, share });
  write(command.json ? JSON.stringify(result) + '\n' : attestationSummary(command.file, result));
  return result.ok ? 0 : 1;
}

interface Streams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The subcommand with the CLI's exit codes: 0 intact, 1 tampered, 2 unreadable input or bad usage. */
export async function attestationCli(argv: readonly string[], io: Streams): Promise<number> {
  let command: AttestationCommand;
  try {
    command = parseAttestationArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`runledger-verify: ${error.message}\nusage:\n${ATTESTATION_USAGE}\n`);
    return 2;
  }
  try {
    return await runAttestation(command, (text) => io.stdout.write(text));
  } catch (error) {
    if (!isInputError(error)) throw error;
    if (command.json) {
      io.stdout.write(
        JSON.stringify({ ok: false, error: { code: error.code, message: error.message } }) + '\n',
      );
    }
    io.stderr.write(`runledger-verify: ${error.message}\n`);
    return 2;
  }
}
