import { describe, expect, it } from 'vitest';
import { apiReport } from './report.js';

/**
 * The API report: every public entry of every library package, its names with their kinds, compared
 * with the committed `api-report/<package>.api.md`. A surface change shows in the diff of that file;
 * after a deliberate change, `npx vitest run test/api-report -u` writes it again.
 */
const root = new URL('../../', import.meta.url).pathname;
const PACKAGES = ['verify-tool', 'core', 'adapters', 'server'] as const;

describe('the public surfaces', () => {
  it.each(PACKAGES)(
    '%s matches its committed API report',
    async (dir) => {
      await expect(apiReport(root, dir)).toMatchFileSnapshot(`../../api-report/${dir}.api.md`);
    },
    120_000,
  );
});
