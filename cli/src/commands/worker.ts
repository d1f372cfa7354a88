import { setTimeout as sleep } from 'node:timers/promises';
import type { Argv } from 'yargs';
import { contextOf, type Context, type GlobalArgs } from '../context.js';
import { CliError } from '../errors.js';
import type { components } from '../generated/router-api.js';
import { failure, ok, routerApi } from '../http/client.js';
import { emit, note } from '../output.js';
import { readSecret } from './secret.js';
import { NODE_CLASSES } from '../enums.js';

type Schemas = components['schemas'];
type NodeClass = Schemas['NodeClass'];

interface WorkerOptions {
  name: string;
  nodeClass: NodeClass;
  registrationKey: string;
  once: boolean;
  intervalSeconds: number;
}

/**
 * Takes one queued job through the whole worker protocol: accept, report progress and a log line,
 * complete. Returns the completed job, or null when nothing was queued for this node class.
 */
async function workOne(context: Context, workerToken: string, name: string) {
  const api = routerApi(context, workerToken);
  const { data: lease, error, response } = await api.POST('/workers/jobs/lease', { body: {} });
  if (response.status === 204) return null;
  if (!response.ok || !lease) throw failure(error, response);
  const { job, lease_token } = lease;
  const path = { params: { path: { job_id: job.job_id } } };
  await ok(api.POST('/workers/jobs/{job_id}/accept', { ...path, body: { lease_token } }));
  await ok(
    api.POST('/workers/jobs/{job_id}/logs', {
      ...path,
      body: { lease_token, lines: [`${name}: ${job.type} job ${job.job_id} accepted`] },
    }),
  );
  await ok(
    api.POST('/workers/jobs/{job_id}/status', {
      ...path,
      body: { lease_token, progress: 100, message: 'done' },
    }),
  );
  return ok(
    api.POST('/workers/jobs/{job_id}/complete', {
      ...path,
      body: { lease_token, result: { worker: name, input: job.input ?? null } },
    }),
  );
}

async function runWorker(context: Context, options: WorkerOptions): Promise<void> {
  const registered = await ok(
    routerApi(context).POST('/workers/register', {
      body: { name: options.name, node_class: options.nodeClass },
      headers: { 'x-registration-key': options.registrationKey },
    }),
  );
  note(`registered worker ${registered.worker_id} (${options.nodeClass})`);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    while (!stop.signal.aborted) {
      const done = await workOne(context, registered.worker_token, options.name);
      if (done) {
        emit(context.json, done, () => `completed ${done.job_id}: ${done.cost} ${done.currency}`);
      } else if (options.once) {
        note('no queued job for this node class');
      }
      if (options.once) return;
      if (!done) {
        await sleep(options.intervalSeconds * 1000, undefined, { signal: stop.signal }).catch(
          () => undefined,
        );
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export function workerCommand(router: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return router.command(
    'worker',
    'register a worker, then lease, accept and complete jobs (for demos and tests)',
    (y) =>
      y
        .option('name', { type: 'string', default: 'cli-worker' })
        .option('node-class', {
          choices: NODE_CLASSES,
          default: 'gpu_a_96gb' as const,
        })
        .option('registration-key', {
          type: 'string',
          describe:
            'prefer the WORKER_REGISTRATION_KEY variable; `-` reads the key from stdin, a literal value is visible in ps',
        })
        .option('once', { type: 'boolean', default: false, describe: 'handle at most one job' })
        .option('interval', {
          type: 'number',
          default: 2,
          describe: 'seconds between empty polls',
        }),
    async (argv) => {
      const context = await contextOf(argv);
      const registrationKey = await readSecret({
        flag: argv['registration-key'],
        flagName: '--registration-key',
        envName: 'WORKER_REGISTRATION_KEY',
        env: context.env,
      });
      if (!registrationKey) {
        throw new CliError('usage', 'set WORKER_REGISTRATION_KEY or give --registration-key -');
      }
      await runWorker(context, {
        name: argv.name,
        nodeClass: argv['node-class'],
        registrationKey,
        once: argv.once,
        intervalSeconds: argv.interval,
      });
    },
  );
}
