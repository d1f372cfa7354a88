import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/auth.js';
import { apiClient } from '../helpers/openapi.js';
import type { TestServer } from '../helpers/server.js';
import type { Receiver } from '../helpers/webhook-receiver.js';
import { startWebhookTestBed, type WebhookTestBed } from '../helpers/webhook-server.js';
import { buildCli, CLI, json, runNode, type Ran } from './run-cli.js';

describe('runledger webhooks', () => {
  let server: TestServer;
  let receiver: Receiver;
  let home: string;
  let owner: Record<string, string>;
  let bed: WebhookTestBed;
  const cli = (...args: string[]): Promise<Ran> => runNode(CLI, args, owner);

  beforeAll(async () => {
    await buildCli();
    bed = await startWebhookTestBed();
    ({ server, receiver } = bed);
    home = await mkdtemp(join(tmpdir(), 'runledger-cli-webhooks-'));
    const { api } = await apiClient(server.url);
    const ada = await signIn(api, 'ada@example.com');
    owner = {
      RUNLEDGER_CONFIG: join(home, 'owner.json'),
      RUNLEDGER_URL: server.url,
      RUNLEDGER_TOKEN: ada.token,
    };
  }, 180_000);
  afterAll(async () => {
    await bed.close();
    await rm(home, { recursive: true, force: true });
  });

  it('creates an endpoint (secret shown once), tests it, and lists its deliveries', async () => {
    const created = await cli(
      'webhooks',
      'create',
      receiver.url,
      '--event',
      'webhook.test',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const endpoint = json<{ id: string; secret: string }>(created);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await cli('webhooks', 'list');
    expect(listed.stdout).toContain(endpoint.id);
    expect(listed.stdout).not.toContain(endpoint.secret);
    const tested = json<{ event_id: string }>(await cli('webhooks', 'test', endpoint.id, '--json'));
    await receiver.until((rs) => rs.some((r) => r.id === tested.event_id), 'the test event');
    const log = await cli('webhooks', 'deliveries', endpoint.id, '--json', 'event_id,event_type');
    expect(json<unknown[]>(log)).toContainEqual({
      event_id: tested.event_id,
      event_type: 'webhook.test',
    });
    const refused = await cli('webhooks', 'create', 'http://10.0.0.1/x', '--event', 'webhook.test');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('may not reach');
    const disabled = await cli(
      'webhooks',
      'update',
      endpoint.id,
      '--no-enabled',
      '--json',
      'enabled',
    );
    expect(json(disabled)).toEqual({ enabled: false });
    expect((await cli('webhooks', 'delete', endpoint.id)).code).toBe(0);
  }, 60_000);
});
