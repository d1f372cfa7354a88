import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against the TypeScript sources of every package, so a test never sees a stale build.
export default defineConfig({
  resolve: {
    alias: {
      '@runledger/verify': src('./verify-tool/src/index.ts'),
      '@runledger/core': src('./core/src/index.ts'),
      '@runledger/adapters': src('./adapters/src/index.ts'),
      '@runledger/server': src('./server/src/index.ts'),
    },
  },
  test: {
    include: ['**/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
