import type { Argv } from 'yargs';
import { contextOf, type GlobalArgs } from '../context.js';
import type { components } from '../generated/router-api.js';
import { ok, routerApi } from '../http/client.js';
import { JOB_TYPES, NODE_CLASSES } from '../enums.js';
import { emit, fields } from '../output.js';
import { jsonObjectArg } from './args.js';
import { listCommand } from './list.js';
import { workerCommand } from './worker.js';

type Schemas = components['schemas'];

const memberFields = (m: Schemas['RouterMember']) =>
  fields([
    ['member', m.member_id],
    ['email', m.email],
    ['name', m.name],
    ['status', m.status],
    ['expires', m.expires_at],
  ]);

export const jobFields = (job: Schemas['RouterJob']) =>
  fields([
    ['job', job.job_id],
    ['status', job.status],
    ['type', `${job.type} on ${job.node_class}, ${job.hours} h`],
    ['estimate', `${job.estimated_amount} ${job.currency}`],
    ['attempt', `${job.attempt} of ${job.max_attempts}`],
    ['worker', job.worker_id],
    ['cost', job.cost === null ? null : `${job.cost} ${job.currency} (${job.billed_seconds} s)`],
  ]);

const datasetFields = (d: Schemas['Dataset']) =>
  fields([
    ['dataset', d.dataset_id],
    ['name', d.name],
    ['status', d.status],
    ['description', d.description],
  ]);

function members(y: Argv<GlobalArgs>): Argv<GlobalArgs> {
  const idArg = (a: Argv<GlobalArgs>) =>
    a.positional('member', { type: 'string', demandOption: true });
  return y
    .command(
      'create',
      'add an inactive member',
      (a) =>
        a
          .option('email', { type: 'string', demandOption: true })
          .option('name', { type: 'string', demandOption: true }),
      async (argv) => {
        const context = await contextOf(argv);
        const member = await ok(
          routerApi(context).POST('/members', { body: { email: argv.email, name: argv.name } }),
        );
        emit(context.json, member, () => memberFields(member));
      },
    )
    .command('show <member>', 'one member', idArg, async (argv) => {
      const context = await contextOf(argv);
      const member = await ok(
        routerApi(context).GET('/members/{member_id}', {
          params: { path: { member_id: argv.member } },
        }),
      );
      emit(context.json, member, () => memberFields(member));
    })
    .command(
      'activate <member>',
      'activate (or extend) a one-year membership',
      idArg,
      async (argv) => {
        const context = await contextOf(argv);
        const activated = await ok(
          routerApi(context).POST('/members/{member_id}/activate', {
            params: { path: { member_id: argv.member } },
            body: {},
          }),
        );
        emit(context.json, activated, () =>
          fields([
            ['member', activated.member_id],
            ['status', activated.status],
            ['expires', activated.expires_at],
            ['charged', `${activated.amount} ${activated.currency}`],
            ['receipt', activated.receipt_id],
          ]),
        );
      },
    )
    .demandCommand(1, 'members needs a subcommand: create, show or activate');
}

function datasets(y: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return listCommand(y, {
    command: 'list',
    describe: 'list datasets',
    cursorFlag: '--after',
    key: 'datasets',
    fetch: async (context, _argv, after, limit) => {
      const page = await ok(
        routerApi(context).GET('/datasets', { params: { query: { limit, after } } }),
      );
      return { rows: page.datasets, next: page.next, page };
    },
    columns: [
      ['DATASET', (d) => d.dataset_id],
      ['STATUS', (d) => d.status],
      ['NAME', (d) => d.name],
    ],
  })
    .command(
      'create',
      'add a dataset',
      (a) =>
        a
          .option('name', { type: 'string', demandOption: true })
          .option('description', { type: 'string' })
          .option('staging', { type: 'boolean', describe: 'not ready for access grants yet' }),
      async (argv) => {
        const context = await contextOf(argv);
        const dataset = await ok(
          routerApi(context).POST('/datasets', {
            body: {
              name: argv.name,
              ...(argv.description !== undefined ? { description: argv.description } : {}),
              ...(argv.staging !== undefined ? { staging: argv.staging } : {}),
            },
          }),
        );
        emit(context.json, dataset, () => datasetFields(dataset));
      },
    )
    .command(
      'grant <dataset>',
      'grant an active member access to a ready dataset',
      (a) =>
        a
          .positional('dataset', { type: 'string', demandOption: true })
          .option('member', { type: 'string', demandOption: true }),
      async (argv) => {
        const context = await contextOf(argv);
        const grant = await ok(
          routerApi(context).POST('/datasets/{dataset_id}/access', {
            params: { path: { dataset_id: argv.dataset } },
            body: { member_id: argv.member },
          }),
        );
        emit(context.json, grant, () =>
          fields([
            ['dataset', grant.dataset_id],
            ['member', grant.member_id],
            ['granted', grant.granted_at],
            ['receipt', grant.receipt_id],
          ]),
        );
      },
    )
    .demandCommand(1, 'datasets needs a subcommand: create, list or grant');
}

function quotes(y: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return y
    .command(
      'create',
      'price compute hours for a member (rates are the server’s)',
      (a) =>
        a
          .option('member', { type: 'string', demandOption: true })
          .option('node-class', { choices: NODE_CLASSES, demandOption: true })
          .option('hours', { type: 'string', demandOption: true, describe: 'e.g. 1.5' }),
      async (argv) => {
        const context = await contextOf(argv);
        const quote = await ok(
          routerApi(context).POST('/compute/quote', {
            body: { member_id: argv.member, node_class: argv['node-class'], hours: argv.hours },
          }),
        );
        emit(context.json, quote, () =>
          fields([
            ['quote', quote.quote_id],
            ['hours', `${quote.hours} × ${quote.hourly_rate} ${quote.currency}`],
            ['amount', `${quote.amount} ${quote.currency}`],
            ['receipt', quote.receipt_id],
          ]),
        );
      },
    )
    .demandCommand(1, 'quotes needs a subcommand: create');
}

function jobs(y: Argv<GlobalArgs>): Argv<GlobalArgs> {
  const idArg = (a: Argv<GlobalArgs>) =>
    a.positional('job', { type: 'string', demandOption: true });
  return y
    .command(
      'create',
      'queue a job for workers of a node class',
      (a) =>
        a
          .option('member', { type: 'string', demandOption: true })
          .option('type', { choices: JOB_TYPES, default: 'inference' as const })
          .option('node-class', { choices: NODE_CLASSES, demandOption: true })
          .option('hours', { type: 'string', demandOption: true })
          .option('input', { type: 'string', describe: 'JSON input for the worker' }),
      async (argv) => {
        const context = await contextOf(argv);
        const input = jsonObjectArg(argv.input, '--input');
        const job = await ok(
          routerApi(context).POST('/jobs', {
            body: {
              member_id: argv.member,
              type: argv.type,
              node_class: argv['node-class'],
              hours: argv.hours,
              ...(input !== undefined ? { input } : {}),
            },
          }),
        );
        emit(context.json, job, () => jobFields(job));
      },
    )
    .command('show <job>', 'one job', idArg, async (argv) => {
      const context = await contextOf(argv);
      const job = await ok(
        routerApi(context).GET('/jobs/{job_id}', { params: { path: { job_id: argv.job } } }),
      );
      emit(context.json, job, () => jobFields(job));
    })
    .command('cancel <job>', 'cancel a queued, leased or running job', idArg, async (argv) => {
      const context = await contextOf(argv);
      const job = await ok(
        routerApi(context).POST('/jobs/{job_id}/cancel', {
          params: { path: { job_id: argv.job } },
          body: {},
        }),
      );
      emit(context.json, job, () => jobFields(job));
    })
    .demandCommand(1, 'jobs needs a subcommand: create, show or cancel');
}

export function routerCommands(cli: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return cli.command(
    'router',
    'the router API (--router-url / RUNLEDGER_ROUTER_URL): members, datasets, quotes, jobs, a worker',
    (router) =>
      workerCommand(
        router
          .command('members', 'router members', members)
          .command('datasets', 'datasets and access grants', datasets)
          .command('quotes', 'compute quotes', quotes)
          .command('jobs', 'compute jobs', jobs),
      ).demandCommand(1, 'router needs a subcommand'),
  );
}
