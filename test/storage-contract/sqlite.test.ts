import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@runledger/adapters';
import { afterAll, beforeAll } from 'vitest';
import { describeStorageContract } from './contract.js';
import { describeIntakeStorageContract } from './intake-contract.js';
import { describeOperationsStorageContract } from './operations-contract.js';
import { describeMerkleStorageContract } from './merkle-contract.js';
import { describeRouterStorageContract } from './router-contract.js';
import { describeRunStorageContract } from './run-contract.js';
import { describeTribunalStorageContract } from './tribunal-contract.js';

let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runledger-storage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeRouterStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeRunStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeTribunalStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeIntakeStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeOperationsStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);

describeMerkleStorageContract('sqlite (file)', () =>
  openSqliteStorage({ file: join(dir, `db-${n++}.sqlite`) }),
);
