import { openPostgresStorage } from '@runledger/adapters';
import { lockKeys } from '@runledger/core/ports';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  freshSchema,
  openFreshPostgres as openFresh,
  postgresSkipped,
} from '../helpers/postgres.js';
import { describeStorageContract } from './contract.js';
import { describeIntakeStorageContract } from './intake-contract.js';
import { describeOperationsStorageContract } from './operations-contract.js';
import { describeMerkleStorageContract } from './merkle-contract.js';
import { describeRouterStorageContract } from './router-contract.js';
import { describeRunStorageContract } from './run-contract.js';
import { describeTribunalStorageContract } from './tribunal-contract.js';

describe.skipIf(postgresSkipped)('PostgreSQL adapter', () => {
  describeStorageContract('postgres', openFresh, 'concurrent');
  describeRouterStorageContract('postgres', openFresh);
  describeRunStorageContract('postgres', openFresh);
  describeTribunalStorageContract('postgres', openFresh);
  describeIntakeStorageContract('postgres', openFresh);
  describeOperationsStorageContract('postgres', openFresh);
  describeMerkleStorageContract('postgres', openFresh);

  const T0 = '2025-01-01T00:00:00.000Z';

  describe('postgres storage', () => {
    it('never forks a chain: 20 concurrent mints in one org, each under the chain lock, take org_seq 0..19', async () => {
      const storage = await openFresh();
      try {
        await storage.write(async (tx) => {
          await tx.orgs.insert({ id: 'org_1', name: 'Org', created_at: T0 });
          const project = { id: 'prj_1', org_id: 'org_1', name: 'P', created_at: T0 };
          await tx.projects.insert({ ...project, created_by: 'usr_1' });
          for (let i = 0; i < 20; i++) {
            await tx.runs.insert({
              id: `run_${i}`,
              org_id: 'org_1',
              project_id: 'prj_1',
              flight_sheet_id: 'fs_x',
              flight_sheet_slug: 'x',
              flight_sheet_version: '1.0.0',
              flight_sheet_sha256: 'a'.repeat(64),
              title: 'T',
              agent_profile: null,
              state: 'finalized',
              verdict: null,
              approval: null,
              created_at: T0,
              created_by: 'usr_1',
              updated_at: T0,
            });
          }
        });
        const GENESIS = '0'.repeat(64);
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            storage.write(async (tx) => {
              await tx.lock(lockKeys.chain('org_1'));
              const head = await tx.receipts.head('org_1');
              await tx.receipts.insert({
                receipt_id: `rcpt_${i}`,
                org_id: 'org_1',
                org_seq: head === null ? 0 : head.org_seq + 1,
                run_id: `run_${i}`,
                parent_hash: head === null ? GENESIS : head.receipt_sha256,
                receipt_sha256: String(i).padStart(64, 'f'),
                payload_text: '{}',
                share_token: `tok_${i}`,
                created_at: T0,
              });
            }),
          ),
        );
        const chain = await storage.write((tx) => tx.receipts.chunk('org_1', -1, 100, 100));
        expect(chain.map((r) => r.org_seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        chain.forEach((r, i) => {
          expect(r.parent_hash).toBe(i === 0 ? GENESIS : chain[i - 1]?.receipt_sha256);
        });
      } finally {
        await storage.close();
      }
    });

    it('migrates once: reopening a migrated schema keeps its data', async () => {
      const { url, schema } = await freshSchema();
      const first = await openPostgresStorage({ connectionString: url, schema });
      await first.write((tx) => tx.orgs.insert({ id: 'org_1', name: 'Org', created_at: T0 }));
      await first.close();
      const second = await openPostgresStorage({ connectionString: url, schema });
      try {
        expect(await second.write((tx) => tx.orgs.byId('org_1'))).toEqual({
          id: 'org_1',
          name: 'Org',
          created_at: T0,
          share_identity: 'email',
        });
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const versions = await client
          .query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations ORDER BY 1`)
          .finally(() => client.end());
        expect(versions.rows.map((r) => Number(r.version))).toEqual([
          1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        ]);
      } finally {
        await second.close();
      }
    });
  });
});
