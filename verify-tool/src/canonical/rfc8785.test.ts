import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.js';

// <repo root>/../shared/vectors/jcs: the RFC 8785 reference vectors, kept outside the project.
const JCS_DIR = fileURLToPath(new URL('../../../../shared/vectors/jcs/', import.meta.url));
const present = existsSync(`${JCS_DIR}input`) && existsSync(`${JCS_DIR}output`);
if (!present) {
  console.warn(`RFC 8785 reference vectors skipped: ${JCS_DIR} does not exist (CI always has it).`);
}
const names = present
  ? readdirSync(`${JCS_DIR}input`)
      .filter((n) => n.endsWith('.json'))
      .sort()
  : [];

describe('RFC 8785 reference vectors', () => {
  it.skipIf(!present)('finds the input files', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  it.skipIf(!present).each(names)('canonicalizes %s byte for byte', (name) => {
    const input = readFileSync(`${JCS_DIR}input/${name}`, 'utf8');
    const expected = readFileSync(`${JCS_DIR}output/${name}`);
    expect(Buffer.from(canonicalJson(JSON.parse(input)), 'utf8').equals(expected)).toBe(true);
  });
});
