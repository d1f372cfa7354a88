import type { Repositories, Storage } from '@runledger/core';
import { apiKeysRepository } from './api-keys.js';
import { computeNodesRepository, quotesRepository } from './compute.js';
import { datasetsRepository } from './datasets.js';
import { jobsRepository } from './jobs.js';
import { checksRepository } from './checks.js';
import { evidenceRepository } from './evidence.js';
import { incidentsRepository } from './incidents.js';
import { flightSheetsRepository } from './flight-sheets.js';
import { receiptsRepository } from './receipts.js';
import { runsRepository } from './runs.js';
import { submissionsRepository } from './submissions.js';
import { tribunalTasksRepository, tribunalVerdictsRepository } from './tribunal.js';
import { Connection, type Sql } from './connection.js';
import { linksRepository } from './links.js';
import { membershipsRepository } from './memberships.js';
import { migrate } from './migrations.js';
import { orgsRepository } from './orgs.js';
import { paymentEventsRepository } from './payment-events.js';
import { projectsRepository } from './projects.js';
import { routerMembersRepository } from './router-members.js';
import { routerOutboxRepository } from './router-outbox.js';
import { usersRepository } from './users.js';
import { workersRepository } from './workers.js';

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

export interface SqliteStorageOptions {
  /** A file path (WAL mode); the directory must exist. */
  file: string;
}

/** Opens (creating if needed) and migrates the SQLite database, and returns the storage port. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const connection = await Connection.open(options.file);
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
