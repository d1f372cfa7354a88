import type { Repositories } from '@runledger/core/ports';
import type { Sql } from './sql.js';
import { apiKeysRepository } from './api-keys.js';
import { auditReceiptsRepository, signInFailuresRepository } from './audit-receipts.js';
import { computeNodesRepository, quotesRepository } from './compute.js';
import { datasetsRepository } from './datasets.js';
import { deploymentStateRepository } from './deployment-state.js';
import { jobsRepository } from './jobs.js';
import { checksRepository } from './checks.js';
import { evidenceRepository } from './evidence.js';
import { incidentsRepository } from './incidents.js';
import { flightSheetsRepository } from './flight-sheets.js';
import { receiptsRepository } from './receipts.js';
import { runsRepository } from './runs.js';
import { submissionsRepository } from './submissions.js';
import { tribunalTasksRepository, tribunalVerdictsRepository } from './tribunal.js';
import { linksRepository } from './links.js';
import { membershipsRepository } from './memberships.js';
import { merkleRepository } from './merkle.js';
import { orgsRepository } from './orgs.js';
import { operationsRepository } from './operations.js';
import { paymentEventsRepository } from './payment-events.js';
import { projectsRepository } from './projects.js';
import { rateLimitsRepository } from './rate-limits.js';
import { routerMembersRepository } from './router-members.js';
import { routerOutboxRepository } from './router-outbox.js';
import { usersRepository } from './users.js';
import { webhookEndpointsRepository } from './webhook-endpoints.js';
import { webhookOutboxRepository } from './webhook-outbox.js';
import { workersRepository } from './workers.js';
import { witnessedCheckpointsRepository } from './witnessed-checkpoints.js';

/** Every repository over one transaction's SQL: the statements both engines run. */
export function repositories(sql: Sql): Repositories {
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
    merkle: merkleRepository(sql),
    auditReceipts: auditReceiptsRepository(sql),
    signInFailures: signInFailuresRepository(sql),
    rateLimits: rateLimitsRepository(sql),
    deploymentState: deploymentStateRepository(sql),
    witnessedCheckpoints: witnessedCheckpointsRepository(sql),
    operations: operationsRepository(sql),
    webhookEndpoints: webhookEndpointsRepository(sql),
    webhookOutbox: webhookOutboxRepository(sql),
  };
}
