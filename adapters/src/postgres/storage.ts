import type { Repositories, Storage } from '@runledger/core';
import { apiKeysRepository } from '../sqlite/api-keys.js';
import { computeNodesRepository, quotesRepository } from '../sqlite/compute.js';
import { datasetsRepository } from '../sqlite/datasets.js';
import { checksRepository } from '../sqlite/checks.js';
import { evidenceRepository } from '../sqlite/evidence.js';
import { incidentsRepository } from '../sqlite/incidents.js';
import { flightSheetsRepository } from '../sqlite/flight-sheets.js';
import { runsRepository } from '../sqlite/runs.js';
import { submissionsRepository } from '../sqlite/submissions.js';
import { tribunalTasksRepository, tribunalVerdictsRepository } from '../sqlite/tribunal.js';
import type { Sql } from '../sqlite/connection.js';
import { checkSchemaName, Connection } from './connection.js';
import { jobsRepository, membershipsRepository, receiptsRepository } from './locks.js';
import { linksRepository } from '../sqlite/links.js';
import { migrate } from './migrations.js';
import { orgsRepository } from '../sqlite/orgs.js';
import { paymentEventsRepository } from '../sqlite/payment-events.js';
import { projectsRepository } from '../sqlite/projects.js';
import { routerMembersRepository } from '../sqlite/router-members.js';
import { routerOutboxRepository } from '../sqlite/router-outbox.js';
import { usersRepository } from '../sqlite/users.js';
import { workersRepository } from '../sqlite/workers.js';

function repositories(sql: Sql): Repositories {
  return {
    users: usersRepository(sql),
    orgs: orgsRepository(sql),
    memberships: membershipsRepository(sql),
    links: linksRepository(sql),
    apiKeys: apiKeysRepository(sql),
    projects: projectsRepository(sql),
    routerMembers: routerMembersRepository(sql),
    datasets: datasetsRepository(sql),
    computeNodes: computeNodesRepository(sql),
    quotes: quotesRepository(sql),
    jobs: jobsRepository(sql),
    workers: workersRepository(sql),
    routerOutbox: routerOutboxRepository(sql),
    paymentEvents: paymentEventsRepository(sql),
    flightSheets: flightSheetsRepository(sql),
    runs: runsRepository(sql),
    submissions: submissionsRepository(sql),
    evidence: evidenceRepository(sql),
    checks: checksRepository(sql),
    receipts: receiptsRepository(sql),
    tribunalVerdicts: tribunalVerdictsRepository(sql),
    tribunalTasks: tribunalTasksRepository(sql),
    incidents: incidentsRepository(sql),
  };
}

export interface PostgresStorageOptions {
  /** e.g. postgres://user:password@host:5432/database */
  connectionString: string;
  /**
   * The schema to keep the tables in (created if missing); the connection's default search_path
   * when omitted. A plain lower-case identifier.
   */
  schema?: string;
}

/** Opens a pool, migrates the database, and returns the storage port. */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  if (options.schema !== undefined) {
    checkSchemaName(options.schema);
    const setup = await Connection.open({ connectionString: options.connectionString });
    try {
      await setup.transaction((sql) => sql.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`));
    } finally {
      await setup.close();
    }
  }
  const connection = await Connection.open(options);
  try {
    await migrate(connection);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return {
    transaction: (fn) => connection.transaction((sql) => fn(repositories(sql))),
    close: () => connection.close(),
  };
}
