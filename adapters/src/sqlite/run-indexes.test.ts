import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Connection } from './connection.js';
import { migrate } from './migrations.js';

describe('SQLite run and receipt indexes', () => {
  let dir: string;
  let connection: Connection;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-plan-'));
    connection = await Connection.open(join(dir, 'db.sqlite'));
    await migrate(connection);
  });
  afterEach(async () => {
    await connection.close();
    await rm(dir, { recursive: true, force: true });
  });

  const plan = async (sql: string) =>
    (await connection.sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`))
      .map((r) => r.detail)
      .join('; ');

  it('mints from the org head through the UNIQUE(org_id, org_seq) index, without sorting', async () => {
    const detail = await plan(
      "SELECT org_seq, receipt_sha256 FROM receipts WHERE org_id = 'o' ORDER BY org_seq DESC LIMIT 1",
    );
    expect(detail).toMatch(/USING INDEX sqlite_autoindex_receipts_\d/);
    expect(detail).not.toMatch(/TEMP B-TREE|SCAN receipts$/);
  });

  it('leases the oldest queued job of a class through the jobs_queue index, without sorting', async () => {
    const detail = await plan(
      "SELECT * FROM jobs WHERE node_class = 'g' AND status = 'queued' ORDER BY created_at, job_id LIMIT 1",
    );
    expect(detail).toMatch(/USING INDEX jobs_queue/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });

  it('pages, chunks and looks up every run and receipt query through an index', async () => {
    const ordered = [
      "SELECT * FROM runs WHERE org_id = 'o' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT * FROM runs WHERE org_id = 'o' AND project_id = 'p' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT * FROM runs WHERE org_id = 'o' AND state = 'draft' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT * FROM runs WHERE org_id = 'o' AND project_id = 'p' AND state = 'draft' ORDER BY created_at, id LIMIT 51",
      "SELECT id FROM flight_sheets WHERE org_id = 'o' AND (created_at, id) > ('t', 'i') ORDER BY created_at, id LIMIT 51",
      "SELECT id FROM flight_sheets WHERE org_id = 'o' AND lane = 'agent' ORDER BY created_at, id LIMIT 51",
      "SELECT id FROM flight_sheets WHERE org_id = 'o' AND slug = 's' ORDER BY version_key DESC LIMIT 1",
      "SELECT * FROM evidence WHERE org_id = 'o' AND run_id = 'r' ORDER BY created_at, id",
      "SELECT * FROM checks WHERE org_id = 'o' AND run_id = 'r' ORDER BY position",
      "SELECT receipt_id FROM receipts WHERE org_id = 'o' AND org_seq > 3 ORDER BY org_seq LIMIT 51",
      "SELECT receipt_id FROM receipts WHERE org_id = 'o' AND org_seq > 3 AND org_seq <= 9 ORDER BY org_seq LIMIT 500",
      "SELECT receipt_id FROM receipts WHERE org_id = 'o' AND org_seq < 9 ORDER BY org_seq DESC LIMIT 51",
    ];
    for (const sql of ordered) {
      const detail = await plan(sql);
      expect(detail, sql).toMatch(/USING (COVERING )?INDEX/);
      expect(detail, sql).not.toMatch(/TEMP B-TREE/);
    }
    const lookups = [
      "SELECT * FROM runs WHERE org_id = 'o' AND id = 'r'",
      "SELECT * FROM submissions WHERE run_id = 'r' AND org_id = 'o'",
      "SELECT * FROM evidence WHERE org_id = 'o' AND run_id = 'r' AND id = 'e'",
      "SELECT COUNT(*) FROM evidence WHERE kind = 'file' AND sha256 = 'h'",
      "SELECT * FROM checks WHERE org_id = 'o' AND run_id = 'r' AND id = 'c'",
      "UPDATE checks SET status = 'pass' WHERE org_id = 'o' AND run_id = 'r' AND id = 'c' AND status = 'open'",
      "DELETE FROM checks WHERE org_id = 'o' AND run_id = 'r'",
      "SELECT * FROM flight_sheets WHERE org_id = 'o' AND id = 'f'",
      "SELECT * FROM receipts WHERE run_id = 'r' AND org_id = 'o'",
      "SELECT * FROM receipts WHERE share_token = 't'",
      "SELECT COUNT(*) FROM receipts WHERE org_id = 'o' AND org_seq <= 9",
    ];
    for (const sql of lookups) {
      expect(await plan(sql), sql).toMatch(
        /USING (COVERING |PRIMARY KEY |INTEGER PRIMARY KEY )?(INDEX|KEY)/,
      );
    }
  });
});
