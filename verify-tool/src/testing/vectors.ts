import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shared test vectors folder beside the repository (CI always has it). */
export const SHARED_VECTORS = fileURLToPath(
  new URL('../../../../shared/vectors/', import.meta.url),
);

/** Reads a shared vector file, or undefined when the folder is absent (a checkout without it). */
export function sharedVector<T>(path: string): T | undefined {
  const file = `${SHARED_VECTORS}${path}`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
