/** The witness policy asked for: `--witness VKEY` (repeatable) and `--witness-threshold K`. */
export interface WitnessArgs {
  witnesses: string[];
  witnessThreshold: number | undefined;
}

export type CliCommand =
  | ({
      command: 'export';
      file: string;
      json: boolean;
      strict: boolean;
      prefix: string | undefined;
      org: string | undefined;
      keys: string[];
      threads: number | undefined;
    } & WitnessArgs)
  | { command: 'receipts'; paths: string[]; json: boolean; keys: string[] }
  | ({
      command: 'receipt';
      file: string;
      json: boolean;
      keys: string[];
      prefix: string | undefined;
    } & WitnessArgs)
  | ({
      command: 'consistency';
      old: string;
      new: string;
      proof: string | undefined;
      json: boolean;
      keys: string[];
    } & WitnessArgs)
  | ({
      command: 'tlog-proof';
      file: string;
      share: string | undefined;
      json: boolean;
      keys: string[];
    } & WitnessArgs)
  | { command: 'help' };

export const USAGE = `usage:
  runledger-verify [--json] [--strict] [--prefix P] [--org ORG_ID] [--key K] [--threads N] EXPORT.ndjson
  runledger-verify receipt [--json] [--prefix P] [--key K] SHARE.json
  runledger-verify consistency [--json] [--key K] [--proof PROOF.json] OLD NEW
  runledger-verify receipts [--json] [--key K] DIR_OR_FILE...
  runledger-verify tlog-proof [--json] [--key K] [--share SHARE.json] FILE.tlog-proof
  runledger-verify attestation --key K [--share SHARE.json] [--json] ATTESTATION.json
Verifies runledger exports, shared receipts and router receipt files offline.
  --key K     trusted signing key: a verifier key string (name+id+base64) or a keys.json file
              (as served at /.well-known/runledger-keys.json); may be repeated. Without it,
              authorship (who signed the checkpoint) is not checked, and the output says so.
  --json      print the result as JSON on stdout
  --strict    also require every payload to be byte-for-byte RFC 8785 canonical
  --prefix P  receipt id prefix (default: the export header's, else "rcpt")
  --org ID    require the export to belong to this org
  --proof F   consistency proof {first, second, hashes} when OLD and NEW are checkpoints
  --witness V a witness's verifier key (name+id+base64, type 0x04); may be repeated. Every
              checkpoint checked must then carry enough valid cosignatures (C2SP tlog-cosignature)
  --witness-threshold K
              how many of the --witness keys must have cosigned (default: all of them)
  --share F   tlog-proof only: the share JSON of the receipt; checks it is the receipt proven
  --threads N worker threads checking an export's lines (0: none; default one per core for
              large files); the result is the same with any number
On a terminal, an export's progress (percent of the header's count, rate) is drawn on stderr.
OLD and NEW are exports or signed checkpoint files.
exit status: 0 intact, 1 tampered, 2 unreadable, missing or truncated input (or bad usage)`;

export class UsageError extends Error {}

const SUBCOMMANDS = new Set(['receipts', 'receipt', 'consistency', 'tlog-proof']);

/** Hand-rolled on purpose: the verify package keeps its dependencies few and auditable. */
export function parseArgs(argv: readonly string[]): CliCommand {
  const positional: string[] = [];
  let json = false;
  let strict = false;
  let prefix: string | undefined;
  let org: string | undefined;
  let proof: string | undefined;
  let threads: number | undefined;
  let share: string | undefined;
  const keys: string[] = [];
  const witness: WitnessArgs = { witnesses: [], witnessThreshold: undefined };
  const valueOf = (i: number, flag: string): string => {
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--'))
      throw new UsageError(`${flag} needs a value`);
    return value;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { command: 'help' };
    else if (arg === '--json') json = true;
    else if (arg === '--strict') strict = true;
    else if (arg === '--prefix') prefix = valueOf(i++, arg);
    else if (arg === '--org') org = valueOf(i++, arg);
    else if (arg === '--key') keys.push(valueOf(i++, arg));
    else if (arg === '--proof') proof = valueOf(i++, arg);
    else if (arg === '--threads') threads = threadCount(valueOf(i++, arg));
    else if (arg === '--share') share = valueOf(i++, arg);
    else if (arg === '--witness') witness.witnesses.push(valueOf(i++, arg));
    else if (arg === '--witness-threshold')
      witness.witnessThreshold = thresholdOf(valueOf(i++, arg));
    else if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  const sub = positional[0] ?? '';
  checkScopes(sub, { strict, org, prefix, threads, proof, share });
  checkWitnessArgs(witness, sub);
  const rest = positional.slice(1);
  if (sub === 'tlog-proof') {
    if (rest.length !== 1) throw new UsageError('tlog-proof needs exactly one tlog-proof file');
    return { command: 'tlog-proof', file: rest[0] as string, share, json, keys, ...witness };
  }
  if (sub === 'receipts') {
    if (rest.length === 0) throw new UsageError('receipts needs at least one directory or file');
    return { command: 'receipts', paths: rest, json, keys };
  }
  if (sub === 'receipt') {
    if (rest.length !== 1) throw new UsageError('receipt needs exactly one share JSON file');
    return { command: 'receipt', file: rest[0] as string, json, keys, prefix, ...witness };
  }
  if (sub === 'consistency') {
    if (rest.length !== 2) throw new UsageError('consistency needs OLD and NEW');
    return {
      command: 'consistency',
      old: rest[0] as string,
      new: rest[1] as string,
      proof,
      json,
      keys,
      ...witness,
    };
  }
  if (positional.length !== 1) throw new UsageError('give exactly one export file');
  return {
    command: 'export',
    file: positional[0] as string,
    json,
    strict,
    prefix,
    org,
    keys,
    threads,
    ...witness,
  };
}

/** Options that apply to some commands only. */
function checkScopes(
  sub: string,
  o: {
    strict: boolean;
    org: string | undefined;
    prefix: string | undefined;
    threads: number | undefined;
    proof: string | undefined;
    share: string | undefined;
  },
): void {
  const { strict, org, prefix, threads, proof, share } = o;
  if (SUBCOMMANDS.has(sub) && (strict || org !== undefined)) {
    throw new UsageError('--strict and --org apply to exports only');
  }
  if (prefix !== undefined && sub !== 'receipt' && SUBCOMMANDS.has(sub)) {
    throw new UsageError('--prefix applies to exports and shared receipts only');
  }
  if (threads !== undefined && SUBCOMMANDS.has(sub)) {
    throw new UsageError('--threads applies to exports only');
  }
  if (proof !== undefined && sub !== 'consistency')
    throw new UsageError('--proof applies to consistency only');
  if (share !== undefined && sub !== 'tlog-proof')
    throw new UsageError('--share applies to tlog-proof only');
}

function thresholdOf(value: string): number {
  const n = Number(value);
  if (!/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(n))
    throw new UsageError('--witness-threshold needs a whole number ≥ 1');
  return n;
}

function checkWitnessArgs(witness: WitnessArgs, sub: string): void {
  if (witness.witnesses.length === 0 && witness.witnessThreshold === undefined) return;
  if (sub === 'receipts') throw new UsageError('router receipt files are not witnessed');
  if (witness.witnesses.length === 0)
    throw new UsageError('--witness-threshold needs at least one --witness');
  if ((witness.witnessThreshold ?? 0) > witness.witnesses.length) {
    throw new UsageError(
      `--witness-threshold ${witness.witnessThreshold} is more than the ${witness.witnesses.length} --witness keys given`,
    );
  }
}

function threadCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 64) throw new UsageError('--threads needs a number from 0 to 64');
  return n;
}
