import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { verifyRouterReceiptFiles } from '@runledger/verify';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, type Api } from '../helpers/openapi.js';
import { newMember, receipts, startRouterWorld, type RouterWorld } from '../helpers/router.js';
import { openRawDb } from '../helpers/sqlite.js';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Received {
  received: true;
  event_id: string;
  duplicate: boolean;
  processed: boolean;
  outcome: string;
  receipt_id: string | null;
}

/** The test's own signer, independent of the server's code. */
function sign(body: string, t: number, secret = SECRET): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

describe('payment webhook', () => {
  let world: RouterWorld;
  let main: Api;
  afterEach(() => world.close());

  async function start(env: Record<string, string> = { PAYMENT_WEBHOOK_SECRET: SECRET }) {
    world = await startRouterWorld(env);
    main = (await apiClient(world.server.url)).api;
  }

  const now = () => Math.floor(world.server.clock.now().getTime() / 1000);

  const paid = (memberId: string, id = 'evt_1', extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      type: 'membership.paid',
      member_id: memberId,
      amount: '100.00',
      currency: 'USD',
      ...extra,
    });

  const deliver = (body: string, signature: string | null) =>
    main<Received>('POST', '/webhooks/payments', {
      body,
      ...(signature !== null ? { headers: { 'x-signature': signature } } : {}),
    });

  const memberStatus = async (memberId: string) =>
    (await world.api<{ status: string }>('GET', `/members/${memberId}/status`)).body.status;

  async function paymentEvents(): Promise<Array<Record<string, unknown>>> {
    const db = await openRawDb(world.server.dataDir);
    try {
      return await db.all('SELECT * FROM payment_events ORDER BY event_id');
    } finally {
      await db.close();
    }
  }

  it('refuses a bad signature, a tampered body and a stale or future timestamp with 401, changing nothing', async () => {
    await start();
    const memberId = await newMember(world.api, false);
    const body = paid(memberId);
    const attempts: Array<[string, string, string | null]> = [
      ['no signature', body, null],
      ['wrong secret', body, sign(body, now(), 'another-secret')],
      ['tampered body', body.replace('100.00', '1.00'), sign(body, now())],
      ['other event signed', paid(memberId, 'evt_2'), sign(body, now())],
      ['stale', body, sign(body, now() - 301)],
      ['future', body, sign(body, now() + 301)],
      ['malformed', body, 'sha256=abc'],
    ];
    for (const [what, sent, signature] of attempts) {
      const refused = await deliver(sent, signature);
      expect([what, refused.status]).toEqual([what, 401]);
      expect(refused.body).toEqual({ detail: expect.any(String) });
    }
    expect(await memberStatus(memberId)).toBe('inactive');
    expect(await receipts(world.server.dataDir)).toEqual([]);
    expect(await paymentEvents()).toEqual([]);
  });

  it('activates on membership.paid once: a redelivery is a duplicate with no second receipt', async () => {
    await start();
    const memberId = await newMember(world.api, false);
    const body = paid(memberId);
    // 299 seconds old is still inside the window.
    const first = await deliver(body, sign(body, now() - 299));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      received: true,
      event_id: 'evt_1',
      duplicate: false,
      processed: true,
      outcome: 'activated',
    });
    expect(await memberStatus(memberId)).toBe('active');

    world.server.clock.advance(60_000);
    const again = await deliver(body, sign(body, now()));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, processed: false, outcome: 'activated' });
    expect(again.body.receipt_id).toBe(first.body.receipt_id);

    const lines = await receipts(world.server.dataDir);
    expect(lines.map((l) => [l.type, l.receipt_id, l.amount, l.currency])).toEqual([
      ['membership', first.body.receipt_id, '100.00', 'USD'],
    ]);
    expect(lines[0]!.subject).toMatchObject({ member_id: memberId });
    expect(await verifyRouterReceiptFiles(`${world.server.dataDir}/receipts`)).toMatchObject({
      ok: true,
      receipts_checked: 1,
    });
    const events = await paymentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event_id: 'evt_1', outcome: 'activated' });
  });

  it('verifies the signature over the exact bytes sent, not over a re-serialized body', async () => {
    await start();
    const memberId = await newMember(world.api, false);
    // Whitespace, another key order and a \u escape: JSON.stringify(JSON.parse(body)) differs from it.
    const body =
      `{\n  "currency" : "USD", "amount": "100.00",\n  "type": "membership.paid",` +
      ` "member_id": "${memberId}", "id": "evt_\\u0032" }`;
    expect(JSON.stringify(JSON.parse(body))).not.toBe(body);
    const reserialized = JSON.stringify(JSON.parse(body));
    const wrong = await deliver(body, sign(reserialized, now()));
    expect(wrong.status).toBe(401);
    expect(await memberStatus(memberId)).toBe('inactive');
    const right = await deliver(body, sign(body, now()));
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ event_id: 'evt_2', outcome: 'activated' });
    expect(await memberStatus(memberId)).toBe('active');
  });

  it('records other types, unknown members and wrong amounts without activating anyone', async () => {
    await start();
    const memberId = await newMember(world.api, false);
    const cases: Array<[string, string]> = [
      ['ignored_type', paid(memberId, 'evt_a', { type: 'invoice.created' })],
      ['unknown_member', paid('mbr_nope', 'evt_b')],
      ['amount_mismatch', paid(memberId, 'evt_c', { amount: '99.00' })],
      ['amount_mismatch', paid(memberId, 'evt_d', { currency: 'EUR' })],
      ['ignored_type', JSON.stringify({ id: 'evt_e', type: 'customer.updated', extra: 1 })],
    ];
    for (const [outcome, body] of cases) {
      const answer = await deliver(body, sign(body, now()));
      expect([outcome, answer.status, answer.body.processed, answer.body.outcome]).toEqual([
        outcome,
        200,
        false,
        outcome,
      ]);
    }
    expect(await memberStatus(memberId)).toBe('inactive');
    expect(await receipts(world.server.dataDir)).toEqual([]);
    expect((await paymentEvents()).map((e) => e.event_id)).toEqual([
      'evt_a',
      'evt_b',
      'evt_c',
      'evt_d',
      'evt_e',
    ]);
  });

  it('answers 400 for a signed body that is not a valid event', async () => {
    await start();
    for (const body of ['{not json', JSON.stringify({ type: 'membership.paid' }), '[]']) {
      expect([body, (await deliver(body, sign(body, now()))).status]).toEqual([body, 400]);
    }
    expect(await paymentEvents()).toEqual([]);
  });

  // Skipped, saying so in the test name, where no openssl binary is installed.
  it.skipIf(!hasOpenssl())(
    'accepts a signature made with the openssl one-liner of docs/internal.md (needs openssl)',
    async () => {
      await start();
      const memberId = await newMember(world.api, false);
      const body = paid(memberId, 'evt_openssl');
      const t = String(now());
      const v1 = execFileSync(
        'sh',
        ['-c', `printf '%s' "$T.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //'`],
        { env: { ...process.env, T: t, BODY: body, SECRET }, encoding: 'utf8' },
      ).trim();
      const answer = await deliver(body, `t=${t},v1=${v1}`);
      expect(answer.body).toMatchObject({ processed: true, outcome: 'activated' });
    },
  );

  it('answers 503 while PAYMENT_WEBHOOK_SECRET is unset, even for a well-signed event', async () => {
    await start({});
    const memberId = await newMember(world.api, false);
    const body = paid(memberId);
    const refused = await deliver(body, sign(body, now()));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: expect.stringContaining('PAYMENT_WEBHOOK_SECRET') });
    expect(await memberStatus(memberId)).toBe('inactive');
  });
});
