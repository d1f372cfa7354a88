import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseKeysDocument } from '@runledger/verify';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError } from './backup/manifest.js';
import { restoreBackup } from './backup/restore.js';
import { takeBackup } from './backup/take-backup.js';
import { describeFinding, type FsckReport } from './fsck/findings.js';
import { silentProgress, terminalProgress } from './fsck/progress.js';
import { UnreadableError, runFsck } from './fsck/run-fsck.js';
import { SignedHistory } from './history/signed-history.js';

type Env = Record<string, string | undefined>;

const USAGE = `usage:
  runledger-server                      serve (the default)
  runledger-server backup --out DIR [--json]
  runledger-server restore --from DIR --data-dir DIR [--replace] [--json]
  runledger-server fsck [--json]
Each reads the server's configuration (DATA_DIR, DATABASE_URL, ...) from the environment.`;

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 1)}\n` : `${text}\n`);
}

async function backup(args: string[], env: Env): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { out: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (values.out === undefined)
    throw new BackupError('backup needs --out DIR (a new, empty folder)');
  const config = loadConfig(env, false);
  const out = resolve(values.out);
  const manifest = await takeBackup(
    {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      signer: config.checkpointSigner,
      host: new URL(config.publicBaseUrl).host,
    },
    out,
  );
  const c = manifest.counts;
  print(
    values.json === true,
    manifest,
    `backup of ${manifest.taken_at} in ${out}: ${c.organizations} organizations, ${c.receipts} receipts, ` +
      `${c.audit_receipts} audit receipts, ${c.blobs} blobs, ${c.day_files} day files ` +
      `(not included: ${manifest.excluded.map((e) => e.path).join(', ')})`,
  );
  return 0;
}

async function restore(args: string[], env: Env): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: 'string' },
      'data-dir': { type: 'string' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const dataDir = values['data-dir'] ?? env.DATA_DIR;
  if (values.from === undefined || dataDir === undefined) {
    throw new BackupError('restore needs --from DIR and --data-dir DIR');
  }
  const manifest = await restoreBackup(resolve(values.from), {
    dataDir: resolve(dataDir),
    databaseUrl: env.DATABASE_URL ? env.DATABASE_URL : null,
    replace: values.replace === true,
  });
  print(
    values.json === true,
    { restored: manifest.taken_at, data_dir: resolve(dataDir), counts: manifest.counts },
    `restored the backup of ${manifest.taken_at} into ${resolve(dataDir)}; ` +
      'the signing key and STATE_DIR are not part of a backup (docs/operations.md, "Backup and restore")',
  );
  return 0;
}

function fsckText(report: FsckReport): string {
  const c = report.checked;
  const lines = report.findings.map(describeFinding);
  if (report.findings_omitted > 0) lines.push(`… and ${report.findings_omitted} more findings`);
  lines.push(
    `${report.ok ? 'OK' : 'DAMAGED'}: ${c.organizations} organizations, ${c.receipts} receipts, ` +
      `${c.audit_receipts} audit receipts, ${c.merkle_nodes} Merkle nodes, ${c.signed_checkpoints} signed checkpoints, ` +
      `${c.blobs} blobs, ${c.day_files} day files (${c.day_file_lines} lines) in ${report.seconds} s; ` +
      `${report.findings.length + report.findings_omitted} findings`,
  );
  return lines.join('\n');
}

async function fsck(args: string[], env: Env): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
  const config = loadConfig(env, false);
  const report = await runFsck(
    {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      receiptPrefix: config.receiptPrefix,
      keys: parseKeysDocument({ keys: config.checkpointSigner.published }),
      signed: SignedHistory.open(config.stateDir).heads(),
    },
    (total) => (process.stderr.isTTY ? terminalProgress(process.stderr, total) : silentProgress),
  );
  print(values.json === true, report, fsckText(report));
  return report.ok ? 0 : 1;
}

const COMMANDS: Record<string, (args: string[], env: Env) => Promise<number>> = {
  backup,
  restore,
  fsck,
};

/**
 * The operator's commands beside serving (docs/operations.md): returns the exit code, or null when
 * `argv` names none (the server starts). Exit 2 for anything that kept a command from judging or
 * finishing: bad arguments or configuration, an unreadable database, a failed copy.
 */
export async function runOpsCommand(
  argv: string[],
  env: Env = process.env,
): Promise<number | null> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'serve') return null;
  const command = COMMANDS[name];
  if (command === undefined || args.includes('--help')) {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  try {
    return await command(args, env);
  } catch (error) {
    const known =
      [BackupError, ConfigError, UnreadableError].some((kind) => error instanceof kind) ||
      String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `runledger-server ${name}: ${known ? message : ((error as Error).stack ?? message)}\n`,
    );
    return 2;
  }
}
