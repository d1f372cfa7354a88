import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedDocuments, type ServedDocuments } from '../../server/src/served-documents.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = `${root}node_modules/@redocly/cli/bin/cli.js`;

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
}

/** `redocly lint` (the pinned @redocly/cli, the repository's redocly.yaml) on one file, as JSON. */
function lint(file: string): Promise<LintReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [REDOCLY, 'lint', file, '--format=json', `--config=${root}redocly.yaml`],
      {
        cwd: root,
        // No telemetry or update check: the lint needs no network.
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const start = stdout.indexOf('{');
      if (start < 0) reject(new Error(`redocly printed no report: ${stderr}`));
      else resolve(JSON.parse(stdout.slice(start)) as LintReport);
    });
  });
}

const described = (report: LintReport) =>
  report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

describe('the served OpenAPI documents under the pinned linter (redocly.yaml)', () => {
  let folder: string;
  let documents: ServedDocuments;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'runledger-openapi-lint-'));
    documents = await servedDocuments();
  }, 60_000);
  afterAll(() => rm(folder, { recursive: true, force: true }));

  for (const api of ['main', 'router'] as const) {
    it(`the ${api} document has no error and no warning`, async () => {
      const file = join(folder, `${api}.json`);
      await writeFile(file, JSON.stringify(documents[api], null, 2));
      const report = await lint(file);
      expect(described(report)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }, 60_000);
  }

  it('reports an operation without operationId or description (the check has teeth)', async () => {
    const broken = structuredClone(documents.main) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    delete broken.paths['/health']!.get!.operationId;
    delete broken.paths['/health']!.get!.description;
    const file = join(folder, 'broken.json');
    await writeFile(file, JSON.stringify(broken));
    const rules = (await lint(file)).problems.map((p) => p.ruleId).sort();
    expect(rules).toEqual(['operation-description', 'operation-operationId']);
  }, 60_000);
});
