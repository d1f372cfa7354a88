import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, parseAllowList } from './address-policy.js';
import { createSender } from './sender.js';

describe('the delivery sender', () => {
  let hits = 0;
  let port = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(204).end();
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses at connect time a name that resolves to loopback, sending nothing', async () => {
    const sender = createSender(parseAllowList('')!);
    const result = await sender.send(`http://localhost:${port}/hook`, {}, '{}');
    sender.close();
    expect(result).toMatchObject({ status: null, error: 'EWEBHOOKADDRESS' });
    expect(hits).toBe(0);
  });

  it('refuses a literal address without looking it up', async () => {
    const sender = createSender(parseAllowList('')!);
    const result = await sender.send(`http://127.0.0.1:${port}/hook`, {}, '{}');
    sender.close();
    expect(result.error).toBe('refused address 127.0.0.1');
    expect(hits).toBe(0);
  });

  it('connects to an address the allow list names', async () => {
    const sender = createSender(parseAllowList('127.0.0.0/8')!);
    const result = await sender.send(`http://localhost:${port}/hook`, {}, '{}');
    sender.close();
    expect(result.status).toBe(204);
    expect(hits).toBe(1);
  });
});

describe('the address policy', () => {
  const none = parseAllowList('')!;
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.31.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '::',
    'fd12::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '100.64.0.1',
  ])('refuses %s', (address) => expect(addressAllowed(address, none)).toBe(false));
  it.each(['93.184.216.34', '2606:2800:220:1::1', '172.32.0.1'])('allows %s', (address) =>
    expect(addressAllowed(address, none)).toBe(true),
  );
  it('reads WEBHOOK_ALLOW_PRIVATE and refuses a malformed one', () => {
    expect(addressAllowed('10.0.0.7', parseAllowList('10.0.0.0/24, ::1')!)).toBe(true);
    expect(addressAllowed('10.0.1.7', parseAllowList('10.0.0.0/24')!)).toBe(false);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/x'])
      expect(parseAllowList(bad)).toBeNull();
  });
});
