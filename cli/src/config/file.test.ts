import { lstat, mkdtemp, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, writeConfig, type StoredConfig } from './file.js';

const SECRET: StoredConfig = {
  base_url: 'http://127.0.0.1:8080',
  credential: { kind: 'api_key', value: 'rlk_secret_value' },
};

describe('writeConfig with a stale temp file left behind', () => {
  let dir: string;
  let path: string;
  let temp: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'runledger-config-'));
    path = join(dir, 'config.json');
    // The name writeConfig uses in this process.
    temp = `${path}.${process.pid}.tmp`;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('never writes the credential into a world-readable file someone already holds open', async () => {
    await writeFile(temp, 'stale\n', { mode: 0o644 });
    const held = await open(temp, 'r');
    try {
      await writeConfig(path, SECRET);
      const seen = await held.readFile('utf8');
      expect(seen).toBe('stale\n');
    } finally {
      await held.close();
    }
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(lstat(temp)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readConfig(path)).toEqual(SECRET);
  });

  it('does not follow a stale temp symlink to write the credential elsewhere', async () => {
    const elsewhere = join(dir, 'elsewhere.txt');
    await writeFile(elsewhere, 'untouched\n', { mode: 0o644 });
    await symlink(elsewhere, temp);
    await writeConfig(path, SECRET);
    expect(await readFile(elsewhere, 'utf8')).toBe('untouched\n');
    expect((await lstat(path)).isFile()).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(lstat(temp)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
