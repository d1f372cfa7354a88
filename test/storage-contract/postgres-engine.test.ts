import { randomBytes } from 'node:crypto';
import { openPostgresStorage } from '@runledger/adapters';
import { backfillLedgerTrees, fenceFor } from '@runledger/core/adapter';
import type { JobRecord, Storage } from '@runledger/core/ports';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshSchema, postgresSkipped } from '../helpers/postgres.js';
import { job } from './router-contract.js';
import { receipt, run, seed } from './run-contract.js';

// The PostgreSQL engine's own guarantees, beyond the shared contract suites: named locks queue
// writers, reads refuse writes, and fenced expiry follows the database's clock.
let adminUrl = '';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function openFresh(clock: 'database' | 'caller' = 'caller'): Promise<Storage> {
  const { url, schema } = await freshSchema();
  adminUrl = url;
  return openPostgresStorage({ connectionString: url, schema, clock });
}

const T0 = '2025-01-01T00:00:00.000Z';

describe.skipIf(postgresSkipped)('postgres engine', () => {
  it('lock(key) makes a second write on the same key wait until the first ends; reads refuse to write', async () => {
    const storage = await openFresh();
    const key = `head:${randomBytes(6).toString('hex')}`;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const first = new Promise<void>((resolve) => (locked = resolve));
    try {
      const a = storage.write(async (tx) => {
        await tx.lock(key);
        locked();
        await held;
        await tx.orgs.insert({ id: 'org_a', name: 'A', created_at: T0 });
        order.push('a done');
      });
      await first;
      const b = storage.write(async (tx) => {
        await tx.lock(key);
        order.push('b locked');
        // Taken after A committed: A's row is visible to B at READ COMMITTED.
        order.push((await tx.orgs.byId('org_a')) === null ? 'b saw nothing' : 'b saw a');
      });
      // Wait (by polling the server, not by time) until B is queued on the advisory lock.
      for (;;) {
        const waiting = await admin((c) =>
          c.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
               AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
            [key],
          ),
        );
        if (Number(waiting.rows[0]?.n) > 0) break;
      }
      expect(order).toEqual([]);
      release();
      await Promise.all([a, b]);
      expect(order).toEqual(['a done', 'b locked', 'b saw a']);
      await expect(
        storage.read((tx) => tx.orgs.insert({ id: 'org_r', name: 'R', created_at: T0 })),
      ).rejects.toThrow(/read-only/);
    } finally {
      release();
      await storage.close();
    }
  });

  it('getForUpdate holds the run: a second write guarded on the same run waits until the first ends, then sees its state and misses', async () => {
    const storage = await openFresh();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const first = new Promise<void>((resolve) => (read = resolve));
    try {
      await storage.write(async (tx) => {
        await seed(tx, 1);
        await tx.runs.insert(run('run_1'));
      });
      const a = storage.write(async (tx) => {
        const run1 = (await tx.runs.getForUpdate('org_1', 'run_1'))!;
        read();
        await held;
        return tx.runs.update('org_1', 'run_1', run1.state, { state: 'audited', updated_at: T0 });
      });
      await first;
      // Without the row held, B's update would commit first and A's would miss.
      const b = storage.write((tx) =>
        tx.runs.update('org_1', 'run_1', 'draft', { state: 'finalized', updated_at: T0 }),
      );
      // Wait (by polling the server, not by time) until B is queued on A's row.
      for (;;) {
        const waiting = await admin((c) =>
          c.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE runs%'`,
          ),
        );
        if (Number(waiting.rows[0]?.n) > 0) break;
      }
      release();
      expect(await a).toBe(true);
      expect(await b).toBe(false);
      expect((await storage.read((tx) => tx.runs.get('org_1', 'run_1')))?.state).toBe('audited');
    } finally {
      release();
      await storage.close();
    }
  });

  it('answers a read before its COMMIT, and the next transaction on that client starts a new snapshot: what was committed meanwhile is seen', async () => {
    const storage = await openFresh();
    try {
      await storage.write((tx) => tx.orgs.insert({ id: 'org_a', name: 'A', created_at: T0 }));
      const first = await storage.read(async (tx) => {
        const before = await tx.orgs.byId('org_b');
        // Committed by another pooled client while this snapshot is open: not visible to it.
        await storage.write((w) => w.orgs.insert({ id: 'org_b', name: 'B', created_at: T0 }));
        return { before, after: await tx.orgs.byId('org_b') };
      });
      expect(first).toEqual({ before: null, after: null });
      // At once, on the client just released with its COMMIT still owed (the pool hands out the
      // last one released): the owed COMMIT goes first, so this is a new snapshot.
      expect((await storage.read((tx) => tx.orgs.byId('org_b')))?.name).toBe('B');
      // And a write after a read on that client commits on its own.
      await storage.read((tx) => tx.orgs.byId('org_a'));
      await storage.write((tx) => tx.orgs.insert({ id: 'org_c', name: 'C', created_at: T0 }));
      expect((await storage.read((tx) => tx.orgs.byId('org_c')))?.name).toBe('C');
    } finally {
      await storage.close();
    }
  });

  // Statements in use are prepared by name, once per connection (pg remembers which it has parsed);
  // a prepared statement outlives the transaction that prepared it, rolled back or aborted.
  it('reuses a statement first prepared in a transaction that rolled back, or whose Parse an aborted transaction refused', async () => {
    const org = (id: string) => ({ id, name: id, created_at: T0 });
    const storage = await openFresh();
    try {
      // A statement is named from its fifth use: four here, so that the fifth below, the one
      // that makes pg send its Parse, happens in the transaction that rolls back (the INSERT) or
      // that a failed statement aborted (the SELECT).
      for (let i = 0; i < 4; i += 1) {
        await storage.write(async (tx) => {
          await tx.orgs.insert(org(`org_warm${i}`));
          await tx.users.byEmail(`warm${i}@example.com`);
        });
      }
      const rolledBack = new Error('rolled back on purpose');
      await expect(
        storage.write(async (tx) => {
          await tx.orgs.insert(org('org_a'));
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      // One at a time, so the pool hands the same connection back: its INSERT is prepared.
      await storage.write((tx) => tx.orgs.insert(org('org_a')));
      expect((await storage.read((tx) => tx.orgs.byId('org_a')))?.name).toBe('org_a');

      // The duplicate fails; the statement behind it in the pipeline (a name this connection has
      // not prepared yet) is refused with the transaction aborted, Parse included.
      await expect(
        storage.write(async (tx) => {
          await Promise.all([tx.orgs.insert(org('org_a')), tx.users.byEmail('a@example.com')]);
        }),
      ).rejects.toThrow(/duplicate key/);
      await storage.write(async (tx) => {
        expect(await tx.users.byEmail('a@example.com')).toBeNull();
        await tx.orgs.insert(org('org_b'));
      });
      expect((await storage.read((tx) => tx.orgs.byId('org_b')))?.name).toBe('org_b');
    } finally {
      await storage.close();
    }
  });

  // Another instance's migration may change a table under statements this one has prepared: a
  // `SELECT *` prepared before then answers "cached plan must not change result type" forever on
  // that connection. Such a transaction runs again, every statement named afresh.
  it('runs a transaction again when a table changed under a prepared statement, and keeps working', async () => {
    const { url, schema } = await freshSchema();
    adminUrl = url;
    const storage = await openPostgresStorage({ connectionString: url, schema });
    try {
      await storage.write((tx) =>
        tx.users.insert({ id: 'usr_a', email: 'a@example.com', created_at: T0 }),
      );
      // Ten concurrent reads, five times over: every pooled connection prepares the lookup.
      for (let i = 0; i < 5; i += 1) {
        await Promise.all(
          Array.from({ length: 10 }, () => storage.read((tx) => tx.users.byEmail('a@example.com'))),
        );
      }
      await admin((c) => c.query(`ALTER TABLE ${schema}.users ADD COLUMN nickname TEXT`));
      const again = await Promise.all(
        Array.from({ length: 10 }, () => storage.read((tx) => tx.users.byEmail('a@example.com'))),
      );
      expect(again.map((user) => user?.id)).toEqual(Array.from({ length: 10 }, () => 'usr_a'));
      expect((await storage.read((tx) => tx.users.byEmail('a@example.com')))?.id).toBe('usr_a');
    } finally {
      await storage.close();
    }
  });

  it('sends an owed COMMIT by itself when nobody takes the client: no session stays idle in a transaction', async () => {
    const storage = await openFresh();
    const idleInTransaction = () =>
      admin(async (c) => {
        const result = await c.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
             AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
        );
        return Number(result.rows[0]?.n);
      });
    try {
      await storage.write((tx) => tx.orgs.insert({ id: 'org_a', name: 'A', created_at: T0 }));
      await Promise.all([1, 2, 3].map(() => storage.read((tx) => tx.orgs.byId('org_a'))));
      // Polled (the COMMIT is sent on the next turn of the event loop and takes a round trip);
      // were it never sent, this would never end and the test would time out.
      while ((await idleInTransaction()) > 0);
      expect(await idleInTransaction()).toBe(0);
    } finally {
      await storage.close();
    }
  });

  it('analyzes the Merkle node table after the start-up backfill appends leaves, so the planner sees its size', async () => {
    const { url, schema } = await freshSchema();
    adminUrl = url;
    const storage = await openPostgresStorage({ connectionString: url, schema, clock: 'caller' });
    const estimate = () =>
      admin(async (c) => {
        const result = await c.query<{ reltuples: number }>(
          'SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)',
          [`${schema}.merkle_nodes`],
        );
        return Number(result.rows[0]?.reltuples);
      });
    try {
      await storage.write(async (tx) => {
        await seed(tx, 1);
        for (let i = 0; i < 40; i++) await tx.runs.insert(run(`run_${i}`));
        for (let i = 0; i < 40; i++) await tx.receipts.insert(receipt(i, `run_${i}`));
      });
      // Never analyzed: PostgreSQL knows nothing of the table's size.
      expect(await estimate()).toBe(-1);
      expect(await backfillLedgerTrees(storage)).toBe(40);
      // 40 leaves and the 38 complete subtrees above them (20 + 10 + 5 + 2 + 1), counted by ANALYZE.
      const nodes = await admin(async (c) => {
        const result = await c.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${schema}.merkle_nodes`,
        );
        return Number(result.rows[0]?.n);
      });
      expect(nodes).toBe(78);
      expect(await estimate()).toBe(nodes);
    } finally {
      await storage.close();
    }
  });

  it("fences lease expiry on the database's clock, whatever clock the caller presents", async () => {
    const storage = await openFresh('database');
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const token = 'c'.repeat(64);
    const leasedJob = (id: string, expires: string, tokenHash: string): JobRecord =>
      job(id, {
        status: 'leased',
        attempt: 1,
        lease_epoch: 1,
        lease_token_hash: tokenHash,
        lease_expires_at: expires,
        worker_id: 'wkr_1',
      });
    try {
      await storage.write(async (tx) => {
        await tx.routerMembers.insert({
          member_id: 'mbr_1',
          email: 'a@example.com',
          name: 'A',
          created_at: T0,
          activated_at: null,
          expires_at: null,
        });
        await tx.workers.insert({
          worker_id: 'wkr_1',
          name: 'w',
          node_class: 'gpu_a_96gb',
          token_hash: 'd'.repeat(64),
          created_at: T0,
          last_seen_at: null,
        });
        await tx.jobs.insert(leasedJob('job_live', at(3_600_000), 'e'.repeat(64)));
        await tx.jobs.insert(leasedJob('job_dead', at(-3_600_000), token));
      });
      const expire = fenceFor('expire');
      const accept = fenceFor('accept');
      const change = (expires: string | null) => ({
        status: 'queued' as const,
        attempt: 2,
        lease_epoch: 2,
        lease_token_hash: null,
        lease_expires_at: expires,
        worker_id: null,
        updated_at: T0,
      });
      await storage.write(async (tx) => {
        // A sweeper whose clock runs two hours fast cannot take a lease the database says is live…
        const fast = { lease_epoch: 1, now: at(7_200_000) };
        expect(await tx.jobs.applyFenced('job_live', expire, fast, change(null))).toBe(false);
        // …and a worker whose clock runs two hours slow cannot act on a lease that has expired.
        const slow = { lease_epoch: 1, token_hash: token, worker_id: 'wkr_1', now: at(-7_200_000) };
        expect(
          await tx.jobs.applyFenced('job_dead', accept, slow, {
            ...change(at(-3_600_000)),
            status: 'running',
            lease_epoch: 1,
            lease_token_hash: token,
            worker_id: 'wkr_1',
          }),
        ).toBe(false);
        // The expired one is swept even by a caller whose clock says it is still live.
        expect(await tx.jobs.applyFenced('job_dead', expire, slow, change(null))).toBe(true);
      });
      expect((await storage.read((tx) => tx.jobs.byId('job_live')))?.status).toBe('leased');
    } finally {
      await storage.close();
    }
  });

  it('concurrent leases pick different queued jobs: a second skips the row the first holds instead of waiting on it', async () => {
    const storage = await openFresh();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let picked!: (ids: string[]) => void;
    const first = new Promise<string[]>((resolve) => (picked = resolve));
    try {
      await storage.write(async (tx) => {
        await tx.routerMembers.insert({
          member_id: 'mbr_1',
          email: 'a@example.com',
          name: 'A',
          created_at: T0,
          activated_at: null,
          expires_at: null,
        });
        await tx.jobs.insert(job('job_1', { created_at: '2025-01-01T00:00:01.000Z' }));
        await tx.jobs.insert(job('job_2', { created_at: '2025-01-01T00:00:02.000Z' }));
      });
      const a = storage.write(async (tx) => {
        picked((await tx.jobs.oldestQueued('gpu_a_96gb', 5)).map((j) => j.job_id));
        await held;
      });
      expect(await first).toEqual(['job_1']);
      // Answered while A still holds job_1 (were it waiting on that row lock, this would hang).
      const second = await storage.write(async (tx) =>
        (await tx.jobs.oldestQueued('gpu_a_96gb', 5)).map((j) => j.job_id),
      );
      expect(second).toEqual(['job_2']);
      release();
      await a;
      // Once A has ended, job_1 is free again: nothing was leased.
      const third = await storage.write(async (tx) =>
        (await tx.jobs.oldestQueued('gpu_a_96gb', 5)).map((j) => j.job_id),
      );
      expect(third).toEqual(['job_1']);
    } finally {
      release();
      await storage.close();
    }
  });

  it('leases the oldest queued job through the jobs_queue index, reads both chain heads as one index row without sorting, and a tree tail by key probes', async () => {
    const { url, schema } = await freshSchema();
    const storage = await openPostgresStorage({ connectionString: url, schema });
    await storage.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // An empty table tempts the planner to scan it; with scans priced out, a plan that still
      // sorts would show that the index cannot serve the ORDER BY.
      await client.query(`SET search_path TO ${schema}`);
      await client.query('SET enable_seqscan = off');
      const plan = async (sql: string) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const lease = await plan(
        "SELECT * FROM jobs WHERE node_class = 'g' AND status = 'queued' ORDER BY created_at, job_id LIMIT 1 FOR UPDATE SKIP LOCKED",
      );
      expect(lease).toMatch(/Index Scan using jobs_queue on jobs/);
      expect(lease).not.toMatch(/Sort/);
      const head = await plan(
        "SELECT org_seq, receipt_sha256 FROM receipts WHERE org_id = 'o' ORDER BY org_seq DESC LIMIT 1",
      );
      expect(head).toMatch(/Index Scan Backward using \w+ on receipts/);
      expect(head).not.toMatch(/Sort/);
      const auditHead = await plan(
        "SELECT org_seq, receipt_sha256 FROM audit_receipts WHERE org_id = 'o' ORDER BY org_seq DESC LIMIT 1",
      );
      expect(auditHead).toMatch(/Index Scan Backward using \w+ on audit_receipts/);
      expect(auditHead).not.toMatch(/Sort/);
      // The tree's tail (MerkleStorage.tail): a probe of the primary key for the size (backward once
      // the tree has rows) and a point lookup per node of the right edge, never a scan of the table.
      const tail = await plan(
        `WITH RECURSIVE edge(size, level) AS (
           SELECT COALESCE((SELECT MAX(idx) FROM merkle_nodes
                            WHERE org_id = 'o' AND log = 'l' AND level = 0) + 1, 0), 0
           UNION ALL
           SELECT size, level + 1 FROM edge WHERE (size >> (level + 1)) > 0
         )
         SELECT e.size, e.level, (e.size >> e.level) - 1 AS idx, (SELECT n.hash FROM merkle_nodes n
           WHERE n.org_id = 'o' AND n.log = 'l' AND n.level = e.level
             AND n.idx = (e.size >> e.level) - 1) AS hash
         FROM edge e WHERE ((e.size >> e.level) & 1) = 1`,
      );
      expect(tail).toMatch(/Index Only Scan (Backward )?using merkle_nodes_pkey/);
      expect(tail).toMatch(/Index Scan using merkle_nodes_pkey on merkle_nodes n/);
      expect(tail).not.toMatch(/Seq Scan|Sort/);
    } finally {
      await client.end();
    }
  });
});
