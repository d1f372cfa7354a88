import { writeFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import { mainApi, ok } from '../http/client.js';
import { emit, note } from '../output.js';

/**
 * `runs attestation <run>`: the run's receipt as a signed in-toto attestation (a DSSE envelope,
 * or with --sigstore the same envelope in a Sigstore bundle v0.3; docs/attestations.md), printed
 * as served or written to --out.
 */
export function attestationCommand(runs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return runs.command(
    'attestation <run>',
    'the run’s receipt as a signed in-toto attestation (SLSA VSA in a DSSE envelope)',
    (y) =>
      y
        .positional('run', { type: 'string', demandOption: true })
        .option('sigstore', {
          type: 'boolean',
          default: false,
          describe: 'the envelope as a Sigstore bundle v0.3 (public-key material)',
        })
        .option('out', { type: 'string', describe: 'write it to this file instead of stdout' })
        .example('$0 runs attestation run_… --out run.intoto.json', 'save the signed envelope')
        .example(
          'npx runledger-verify attestation --key keys.json run.intoto.json',
          'check it offline with the published key',
        ),
    async (argv) => {
      const context = await contextOf(argv);
      const path = { params: { path: { run_id: argv.run } } };
      const document = argv.sigstore
        ? await ok(mainApi(context).GET('/runs/{run_id}/attestation/sigstore', path))
        : await ok(mainApi(context).GET('/runs/{run_id}/attestation', path));
      const text = JSON.stringify(document);
      if (argv.out === undefined) {
        emit(context.json, document, () => text);
        return;
      }
      await writeFile(argv.out, text + '\n');
      emit(context.json, { file: argv.out }, () => `wrote the attestation to ${argv.out}`);
      if (context.json === false && !argv.sigstore)
        note(`check it offline: npx runledger-verify attestation --key keys.json ${argv.out}`);
    },
  );
}
