import type * as NodeCryptoModule from 'node:crypto';

/**
 * `node:crypto` when the package runs in Node, `undefined` in a browser. It is looked up through
 * `process.getBuiltinModule` at load time rather than imported, so a browser bundle never sees a
 * Node import and falls back to the pure-JS primitives.
 */
export const nodeCrypto: typeof NodeCryptoModule | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.('node:crypto') as typeof NodeCryptoModule | undefined;
  } catch {
    return undefined;
  }
})();
