export type CliCommand =
  | {
      command: 'export';
      file: string;
      json: boolean;
      strict: boolean;
      prefix: string | undefined;
      org: string | undefined;
    }
  | { command: 'receipts'; paths: string[]; json: boolean }
  | { command: 'help' };

export const USAGE = `usage:
  runledger-verify [--json] [--strict] [--prefix P] [--org ORG_ID] EXPORT.ndjson
  runledger-verify receipts [--json] DIR_OR_FILE...

Verifies a runledger ledger export (NDJSON) or router receipt files offline.
  --json      print the result as JSON on stdout
  --strict    also require every payload to be byte-for-byte RFC 8785 canonical
  --prefix P  receipt id prefix (default: the export header's, else "rcpt")
  --org ID    require the export to belong to this org
exit status: 0 intact, 1 tampered, 2 unreadable, missing or truncated input (or bad usage)`;

export class UsageError extends Error {}

/** Hand-rolled on purpose: the verify package depends on nothing but canonicalize and @noble/hashes. */
export function parseArgs(argv: readonly string[]): CliCommand {
  const positional: string[] = [];
  let json = false;
  let strict = false;
  let prefix: string | undefined;
  let org: string | undefined;
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
    else if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional[0] === 'receipts') {
    if (strict || prefix !== undefined || org !== undefined) {
      throw new UsageError('--strict, --prefix and --org apply to exports, not router receipts');
    }
    const paths = positional.slice(1);
    if (paths.length === 0) throw new UsageError('receipts needs at least one directory or file');
    return { command: 'receipts', paths, json };
  }
  if (positional.length !== 1) throw new UsageError('give exactly one export file');
  return { command: 'export', file: positional[0] as string, json, strict, prefix, org };
}
