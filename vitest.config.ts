import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against the TypeScript sources of every package, so a test never sees a stale build.
export default defineConfig({
  resolve: {
    // Exact names: a prefix alias would turn `@runledger/core/schemas` into `core/src/index.ts/schemas`.
    alias: [
      { find: /^@runledger\/verify$/, replacement: src('./verify-tool/src/index.ts') },
      {
        find: /^@runledger\/verify\/(attestation|chain|export|hash|ledger|merkle|note|router|tlog-proof|witness)$/,
        replacement: src('./verify-tool/src/$1/index.ts'),
      },
      { find: /^@runledger\/core$/, replacement: src('./core/src/index.ts') },
      {
        find: /^@runledger\/core\/(schemas|ports|testing)$/,
        replacement: src('./core/src/$1/index.ts'),
      },
      { find: /^@runledger\/core\/adapter$/, replacement: src('./core/src/adapter.ts') },
      { find: /^@runledger\/adapters$/, replacement: src('./adapters/src/index.ts') },
      { find: /^@runledger\/server$/, replacement: src('./server/src/index.ts') },
    ],
  },
  test: {
    include: ['**/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
