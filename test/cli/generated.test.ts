import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, generateClientSources } from '../../cli/src/generate/sources.js';
import { servedDocuments } from '../../server/src/served-documents.js';

const cliRoot = fileURLToPath(new URL('../../cli/', import.meta.url));

describe('the generated client types', () => {
  it('match what the current server serves (run `npm run generate:client` when this fails)', async () => {
    const documents = (await servedDocuments()) as unknown as Record<'main' | 'router', OpenAPI3>;
    const fresh = await generateClientSources(documents, `${cliRoot}${GENERATED_FILES.main}`);
    const folder = await mkdtemp(join(tmpdir(), 'runledger-generated-'));
    try {
      for (const api of ['main', 'router'] as const) {
        const regenerated = join(folder, `${api}-api.ts`);
        await writeFile(regenerated, fresh[api]);
        const checkedIn = await readFile(`${cliRoot}${GENERATED_FILES[api]}`, 'utf8');
        expect(
          checkedIn === (await readFile(regenerated, 'utf8')),
          `cli/${GENERATED_FILES[api]} differs from the served /openapi.json: run npm run generate:client`,
        ).toBe(true);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
