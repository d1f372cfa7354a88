import { basename } from 'node:path';
import type { Argv } from 'yargs';
import { contextOf, requireToken, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import type { components } from '../generated/main-api.js';
import { failure, mainApi, ok, reachMain } from '../http/client.js';
import { fileSize, multipartFile } from '../http/multipart.js';
import { emit, fields } from '../output.js';
import { progressBar } from '../progress.js';
import { TEXT_EVIDENCE_KINDS } from '../enums.js';

type Evidence = components['schemas']['Evidence'];

/** POST /runs/{run_id}/evidence/upload with the file streamed from disk; a bar on stderr when it is a terminal. */
async function upload(context: Context, runId: string, label: string, path: string) {
  const token = requireToken(context);
  const bar = progressBar({
    label: `uploading ${basename(path)}`,
    unit: { kind: 'bytes' },
    total: await fileSize(path),
  });
  const multipart = multipartFile({ label }, 'file', path, bar);
  let response: Response;
  try {
    response = await reachMain(
      `${context.baseUrl}/runs/${encodeURIComponent(runId)}/evidence/upload`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': multipart.contentType },
        body: multipart.body as unknown as RequestInit['body'],
        duplex: 'half',
      } as RequestInit,
    );
  } finally {
    // The answer comes after the body was read (or refused): end the bar's line before any message.
    bar.finish();
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a proxy page): `failure` reports the text.
  }
  if (!response.ok) throw failure(parsed, response);
  return parsed as Evidence;
}

export function evidenceCommands(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return runs.command('evidence', 'attach evidence to a run', (evidence) =>
    evidence
      .command(
        'add <run>',
        'add text evidence (--kind --content) or upload a file (--file)',
        (y) =>
          y
            .positional('run', { type: 'string', demandOption: true })
            .option('label', { type: 'string', demandOption: true })
            .option('kind', { choices: TEXT_EVIDENCE_KINDS, describe: 'kind of text evidence' })
            .option('content', { type: 'string', describe: 'the text itself' })
            .option('file', { type: 'string', describe: 'upload this file (kind "file")' })
            .conflicts('file', ['content', 'kind'])
            .check((argv) => {
              if (argv.file === undefined && (argv.content === undefined || !argv.kind)) {
                throw new Error('give --kind and --content, or --file');
              }
              return true;
            }),
        async (argv) => {
          const context = await contextOf(argv);
          let added: Evidence;
          if (argv.file !== undefined) {
            added = await upload(context, argv.run, argv.label, argv.file);
          } else {
            if (!argv.kind || argv.content === undefined) {
              throw new CliError('usage', 'give --kind and --content, or --file');
            }
            added = await ok(
              mainApi(context).POST('/runs/{run_id}/evidence', {
                params: { path: { run_id: argv.run } },
                body: { kind: argv.kind, label: argv.label, content: argv.content },
              }),
            );
          }
          emit(context.json, added, () =>
            fields([
              ['id', added.id],
              ['kind', added.kind],
              ['label', added.label],
              ['size', added.size],
              ['sha256', added.sha256],
            ]),
          );
        },
      )
      .demandCommand(1, 'evidence needs a subcommand: add'),
  );
}
