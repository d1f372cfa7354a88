import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, generateClientSources } from '../../cli/src/generate/sources.js';

const cliRoot = fileURLToPath(new URL('../../cli/', import.meta.url));

describe('the generated client types', () => {
  it('match what the current server serves (run `npm run generate:client` when this fails)', async () => {
    const fresh = await generateClientSources(`${cliRoot}${GENERATED_FILES.main}`);
    for (const api of ['main', 'router'] as const) {
      const checkedIn = await readFile(`${cliRoot}${GENERATED_FILES[api]}`, 'utf8');
      expect(
        checkedIn === fresh[api],
        `cli/${GENERATED_FILES[api]} differs from the served /openapi.json: run npm run generate:client`,
      ).toBe(true);
    }
  }, 60_000);
});
