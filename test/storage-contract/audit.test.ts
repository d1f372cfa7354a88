import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import { afterAll, beforeAll } from 'vitest';
import { openFreshPostgres, postgresSkipped } from '../helpers/postgres.js';
import { describeAuditStorageContract } from './audit-contract.js';

let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runledger-storage-audit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeAuditStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);
if (!postgresSkipped) describeAuditStorageContract('postgres', openFreshPostgres);
