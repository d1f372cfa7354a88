import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshSchema, postgresSkipped } from '../helpers/postgres.js';
import { startTestServer } from '../helpers/server.js';

const ready = async (url: string) => {
  const response = await fetch(`${url}/ready`);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('GET /ready', () => {
  it('answers 200 when storage and the receipt sink work, 503 naming the receipt sink when it cannot be written', async () => {
    const server = await startTestServer();
    try {
      expect(await ready(server.url)).toEqual({ status: 200, body: { ok: true } });
      const receipts = join(server.dataDir, 'receipts');
      await rename(receipts, `${receipts}.away`);
      // A file where the folder was: nothing can be created in it.
      await writeFile(receipts, 'not a folder');
      expect(await ready(server.url)).toEqual({
        status: 503,
        body: { detail: 'not ready: receipt_sink' },
      });
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      await rm(receipts);
      await rename(`${receipts}.away`, receipts);
      expect((await ready(server.url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.skipIf(postgresSkipped)(
    'answers 503 naming storage when its query fails (PostgreSQL), and 200 again once it works',
    async () => {
      const { url, schema } = await freshSchema();
      const databaseUrl = new URL(url);
      databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
      const server = await startTestServer({ DATABASE_URL: databaseUrl.toString() });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        expect((await ready(server.url)).status).toBe(200);
        await admin.query(`ALTER TABLE ${schema}.orgs RENAME TO orgs_away`);
        expect(await ready(server.url)).toEqual({
          status: 503,
          body: { detail: 'not ready: storage' },
        });
        await admin.query(`ALTER TABLE ${schema}.orgs_away RENAME TO orgs`);
        expect((await ready(server.url)).status).toBe(200);
      } finally {
        await admin.end();
        await server.close();
      }
    },
  );
});
