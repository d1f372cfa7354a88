/**
 * A Node built-in module looked up at load time through `process.getBuiltinModule` rather than
 * imported, so a browser bundle of the package never sees a Node import; `undefined` in a browser
 * (or a Node without it), where callers fall back to what runs everywhere.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}
