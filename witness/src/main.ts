import { join } from 'node:path';
import { formatCosignerVkey } from '@runledger/verify/witness';
import { witnessServer } from './http.js';
import { initWitnessKey, loadWitnessKey } from './key-file.js';
import { parseLogRule, type LogRule } from './logs.js';
import { openWitnessState } from './state.js';

const USAGE = `usage:
  runledger-witness init --data DIR --name NAME
  runledger-witness serve --data DIR --listen HOST:PORT --log ORIGIN=VKEY [--log ORIGIN=VKEY...]
A C2SP tlog-witness. init makes the witness's Ed25519 key in DIR and prints its verifier key
(give it to verifiers: runledger-verify --witness VKEY). serve answers POST /add-checkpoint,
cosigning (C2SP tlog-cosignature, cosignature/v1) each log's checkpoints that extend the last one
it cosigned; its state lives in DIR/witness.sqlite. ORIGIN ending in /* stands for every log whose
origin starts with that prefix, signed by VKEY (a runledger deployment: <host>/orgs/*).`;

function options(argv: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i] as string;
    const value = argv[i + 1];
    if (!['--data', '--name', '--listen', '--log'].includes(flag) || value === undefined)
      throw new Error(`unknown option or missing value: ${flag}`);
    out.set(flag, [...(out.get(flag) ?? []), value]);
  }
  return out;
}

function one(opts: Map<string, string[]>, flag: string): string {
  const values = opts.get(flag) ?? [];
  if (values.length !== 1) throw new Error(`give ${flag} once`);
  return values[0] as string;
}

function serve(opts: Map<string, string[]>): void {
  const dir = one(opts, '--data');
  const listen = /^(.*):(\d+)$/.exec(one(opts, '--listen'));
  if (listen === null) throw new Error('--listen needs HOST:PORT');
  const logs: LogRule[] = (opts.get('--log') ?? []).map(parseLogRule);
  if (logs.length === 0) throw new Error('give at least one --log ORIGIN=VKEY');
  const signer = loadWitnessKey(dir);
  const state = openWitnessState(join(dir, 'witness.sqlite'));
  const server = witnessServer({ logs, state, signer, now: () => Math.floor(Date.now() / 1000) });
  server.listen(Number(listen[2]), listen[1]!.replace(/^\[|\]$/g, ''), () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : listen[2];
    console.log(`runledger-witness ${formatCosignerVkey(signer.name, signer.publicKey)}`);
    console.log(`listening on http://${listen[1]}:${port}`);
  });
  const stop = () => server.close(() => state.close());
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function main(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  try {
    if (command === 'init') {
      const opts = options(rest);
      console.log(initWitnessKey(one(opts, '--data'), one(opts, '--name')));
      return 0;
    }
    if (command === 'serve') {
      serve(options(rest));
      return 0;
    }
    if (command === '--help' || command === 'help') {
      console.log(USAGE);
      return 0;
    }
    throw new Error(command === undefined ? 'give a command' : `unknown command ${command}`);
  } catch (error) {
    console.error(`runledger-witness: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
