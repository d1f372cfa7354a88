import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatSkey, formatVkey } from '@runledger/verify/note';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'runledger-config-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses production without JWT_SECRET, naming the variable', () => {
    expect(() => loadConfig({ APP_ENV: 'production', DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_ENV: 'production', DATA_DIR: dataDir })).toThrow(/JWT_SECRET/);
  });

  it('generates the development secret once, mode 0600, and reuses it', async () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret).toHaveLength(43);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect((await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()).toBe(first.jwtSecret);
    expect((await stat(join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
  });

  it('pretty-prints logs only at a terminal outside production unless LOG_FORMAT says', () => {
    const env = { DATA_DIR: dataDir };
    const prod = {
      ...env,
      APP_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      SIGNING_KEY: formatSkey('ckpt.example', new Uint8Array(32).fill(4)),
    };
    expect(loadConfig(env, true).logFormat).toBe('pretty');
    expect(loadConfig(env, false).logFormat).toBe('json');
    expect(loadConfig(prod, true).logFormat).toBe('json');
    expect(loadConfig({ ...env, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ ...prod, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ ...env, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('serves metrics only when METRICS_PORT is set, on loopback unless METRICS_HOST says', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).metricsPort).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, METRICS_PORT: 'off' }).metricsPort).toBeNull();
    const on = loadConfig({ DATA_DIR: dataDir, METRICS_PORT: '9464' });
    expect([on.metricsPort, on.metricsHost]).toEqual([9464, '127.0.0.1']);
    const prod = loadConfig({
      DATA_DIR: dataDir,
      APP_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      SIGNING_KEY: formatSkey('ckpt.example', new Uint8Array(32).fill(4)),
      METRICS_PORT: '9464',
    });
    expect(prod.metricsHost).toBe('127.0.0.1');
    expect(() => loadConfig({ DATA_DIR: dataDir, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir, METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });

  it('refuses production without SIGNING_KEY, and a malformed one, without repeating it', () => {
    const env = { APP_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(32) };
    expect(() => loadConfig(env)).toThrow(/requires SIGNING_KEY/);
    const bad = 'PRIVATE+KEY+ckpt.example+00000000+AQID';
    expect(() => loadConfig({ ...env, SIGNING_KEY: bad })).toThrow(ConfigError);
    try {
      loadConfig({ ...env, SIGNING_KEY: bad });
    } catch (error) {
      expect(String(error)).not.toContain('AQID');
    }
    const skey = formatSkey('ckpt.example', new Uint8Array(32).fill(4));
    expect(loadConfig({ ...env, SIGNING_KEY: skey }).checkpointSigner.name).toBe('ckpt.example');
  });

  it('generates the development signing key once into DATA_DIR, mode 0600, named for the public host', async () => {
    const first = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://ledger.example' });
    const second = loadConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://ledger.example' });
    expect(first.checkpointSigner.name).toBe('ledger.example');
    expect(second.checkpointSigner.publicKey).toEqual(first.checkpointSigner.publicKey);
    expect((await stat(join(dataDir, 'signing-key'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dataDir, 'signing-key'), 'utf8')).toMatch(
      /^PRIVATE\+KEY\+ledger\.example\+/,
    );
  });

  it('reads retired keys and the instance id, refusing malformed ones', () => {
    const old = formatVkey('old.example', new Uint8Array(32).fill(1));
    const retired = JSON.stringify([
      { vkey: old, not_before: '2025-01-01T00:00:00.000Z', not_after: '2026-01-01T00:00:00.000Z' },
    ]);
    const config = loadConfig({
      DATA_DIR: dataDir,
      SIGNING_KEYS_RETIRED: retired,
      INSTANCE_ID: 'eu-1',
    });
    expect(config.checkpointSigner.published.map((k) => k.vkey)).toContain(old);
    expect(config.instanceId).toBe('eu-1');
    expect(() => loadConfig({ DATA_DIR: dataDir, SIGNING_KEYS_RETIRED: '[{}]' })).toThrow(
      /SIGNING_KEYS_RETIRED/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, INSTANCE_ID: 'a/b' })).toThrow(/INSTANCE_ID/);
  });

  it('names no instance unless INSTANCE_ID is set (day files YYYY-MM-DD.receipts.jsonl)', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).instanceId).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, INSTANCE_ID: '' }).instanceId).toBeNull();
  });

  it('uses PostgreSQL only when DATABASE_URL is set and non-empty', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).databaseUrl).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '' }).databaseUrl).toBeNull();
    const url = 'postgres://app@db.internal:5432/runledger';
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('reads the documented defaults and rejects malformed numbers', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      jwtTtlHours: 720,
      magicLinkTtlMinutes: 10,
      production: false,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'short' })).toThrow(/32/);
  });

  it('refuses an external tribunal runner without RUNNER_TOKEN, and short internal secrets in production', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, TRIBUNAL_RUNNER: 'external' })).toThrow(
      /RUNNER_TOKEN/,
    );
    expect(
      loadConfig({ DATA_DIR: dataDir, TRIBUNAL_RUNNER: 'external', RUNNER_TOKEN: 'r' }).runnerToken,
    ).toBe('r');
    const production = {
      DATA_DIR: dataDir,
      APP_ENV: 'production',
      JWT_SECRET: 'j'.repeat(32),
      SIGNING_KEY: formatSkey('ckpt.example', new Uint8Array(32).fill(4)),
    };
    for (const name of [
      'RUNNER_TOKEN',
      'INTERNAL_API_KEY',
      'PAYMENT_WEBHOOK_SECRET',
      'WORKER_REGISTRATION_KEY',
    ]) {
      expect(() => loadConfig({ ...production, [name]: 'short' })).toThrow(name);
      expect(() => loadConfig({ ...production, [name]: 'k'.repeat(32) })).not.toThrow();
    }
    expect(loadConfig({ ...production, INTERNAL_API_KEY: '' }).internalApiKey).toBeNull();
  });

  it('refuses a RECEIPT_PREFIX that would make receipt ids ambiguous, at start', () => {
    expect(loadConfig({ DATA_DIR: dataDir, RECEIPT_PREFIX: 'acme_1' }).receiptPrefix).toBe(
      'acme_1',
    );
    for (const bad of ['acme-1', '1acme', '', 'a'.repeat(33)]) {
      expect(() => loadConfig({ DATA_DIR: dataDir, RECEIPT_PREFIX: bad })).toThrow(
        /RECEIPT_PREFIX/,
      );
    }
  });

  it('reads the router defaults and leaves worker registration off until its key is set', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      routerPort: 8081,
      routerHost: '127.0.0.1',
      routerSweepSeconds: 5,
      leaseTtlSeconds: 600,
      jobMaxAttempts: 3,
      workerRegistrationKey: null,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, WORKER_REGISTRATION_KEY: 'k' }).workerRegistrationKey,
    ).toBe('k');
    expect(() => loadConfig({ DATA_DIR: dataDir, ROUTER_PORT: '70000' })).toThrow(/ROUTER_PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir, ROUTER_SWEEP_SECONDS: '0' })).toThrow(
      /ROUTER_SWEEP_SECONDS/,
    );
  });
});
