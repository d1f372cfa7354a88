import { createInterface } from 'node:readline';
import { ExportVerifier } from '@runledger/verify/export';
import { VerifyError, type ExportVerifyResult } from '@runledger/verify';
import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { AUDIT_EVENT_TYPES } from '../enums.js';
import { CliError } from '../errors.js';
import { mainApi, ok } from '../http/client.js';
import { emit, table } from '../output.js';
import { paint } from '../terminal.js';
import { downloadExport, exportLedger } from './export.js';
import { listCommand } from './list.js';

/**
 * Downloads the audit export and checks it here, with the verify package `runledger-verify` runs:
 * the answer does not depend on trusting the server's own check.
 */
async function verifyAudit(argv: GlobalArgs): Promise<void> {
  const context = await contextOf(argv);
  const body = await downloadExport(context, '/org/audit/export');
  const verifier = new ExportVerifier();
  let result: ExportVerifyResult;
  try {
    for await (const text of createInterface({ input: body, crlfDelay: Infinity })) {
      verifier.push({ text });
    }
    result = verifier.finish();
  } catch (error) {
    if (error instanceof VerifyError) throw new CliError('not_verified', error.message);
    throw error;
  }
  const summary = {
    ok: result.ok,
    org_id: result.header.org_id,
    receipts_checked: result.receipts_checked,
    head_sha256: result.header.head_sha256,
    merkle_root: result.merkle_root,
    checkpoint: result.checkpoint,
    errors: result.errors,
  };
  emit(context.json, summary, () =>
    result.ok
      ? `${paint(process.stdout, 'green', 'OK')}: ${result.receipts_checked} audit receipts verified, head ${result.header.head_sha256}`
      : [
          `${paint(process.stdout, 'red', 'NOT VERIFIED')}: ${result.errors.length} problems in ${result.receipts_checked} audit receipts`,
          table(result.errors, [
            ['SEQ', (e) => e.org_seq],
            ['RECEIPT', (e) => e.receipt_id],
            ['LINE', (e) => e.line],
            ['CODE', (e) => e.code],
            ['MESSAGE', (e) => e.message],
          ]),
        ].join('\n'),
  );
  if (!result.ok) throw new CliError('not_verified', 'the audit chain does not verify');
}

export function auditCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command(
    'audit',
    'your organization’s audit receipts: who changed what (owners only)',
    (audit) =>
      listCommand(audit, {
        command: 'list',
        describe: 'list audit receipts in chain order',
        cursorFlag: '--after-seq',
        key: 'entries',
        options: (y) =>
          y.option('type', {
            choices: AUDIT_EVENT_TYPES,
            describe: 'only receipts of this event type',
          }),
        fetch: async (context, argv, after, limit) => {
          const page = await ok(
            mainApi(context).GET('/org/audit', {
              params: { query: { after_seq: after, limit, type: argv.type } },
            }),
          );
          return { rows: page.entries, next: page.next, page };
        },
        columns: [
          ['SEQ', (e) => e.org_seq],
          ['TYPE', (e) => e.event_type],
          ['ACTOR', (e) => `${e.payload.actor.kind}:${e.payload.actor.id ?? '-'}`],
          ['CREATED', (e) => e.created_at],
          ['RECEIPT', (e) => e.receipt_id],
        ],
        examples: [
          ['$0 audit list --type member.role_changed', 'every role change'],
          ['$0 audit list --all --json receipt_id,event_type', 'the whole chain for a script'],
        ],
      })
        .command(
          'export',
          'download the audit chain as NDJSON for offline verification (to stdout without --out)',
          (y) =>
            y
              .option('out', {
                type: 'string',
                describe: 'file to write (via FILE.partial); without it, NDJSON on stdout',
              })
              .example('$0 audit export --out audit.ndjson', 'to a file, then runledger-verify it'),
          (argv) => exportLedger(argv, '/org/audit/export'),
        )
        .command(
          'verify',
          'download the audit chain and verify it here (exit 1 when it does not verify)',
          (y) => y,
          (argv) => verifyAudit(argv),
        )
        .command(
          'checkpoint',
          'the signed checkpoint of the audit tree (origin …/orgs/<org>/audit), printed as the signed note',
          (y) =>
            y.example(
              '$0 audit checkpoint > audit-checkpoint.txt',
              'the note, for runledger-verify',
            ),
          async (argv) => {
            const context = await contextOf(argv);
            const checkpoint = await ok(mainApi(context).GET('/org/audit/checkpoint'));
            emit(context.json, checkpoint, () => checkpoint.checkpoint.trimEnd());
          },
        )
        .demandCommand(1, 'audit needs a subcommand: list, export, verify or checkpoint'),
  );
}
