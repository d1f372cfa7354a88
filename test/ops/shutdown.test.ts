import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { spawnServer } from '../helpers/processes.js';

/** Polls `probe` until it returns true (bounded; nothing about time is asserted). */
async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

describe('SIGTERM', () => {
  it('drains (/ready 503, requests still served), then stops accepting, finishes in-flight requests, closes and exits 0', async () => {
    const server = await spawnServer({ SHUTDOWN_GRACE_SECONDS: '600' });
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    );
    try {
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      server.child.kill('SIGTERM');
      await until('/ready answers 503', async () => {
        const answer = await fetch(`${server.url}/ready`);
        if (answer.status !== 503) return false;
        expect(await answer.json()).toEqual({ detail: 'not ready: draining' });
        return true;
      });
      // Still serving while draining: liveness and real work.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(
        (
          await fetch(`${server.url}/auth/request`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'during-drain@example.com' }),
          })
        ).status,
      ).toBe(200);

      // A request in flight: headers and half its body sent before the listeners close.
      const body = JSON.stringify({ email: 'in-flight@example.com' });
      const half = Math.floor(body.length / 2);
      const { port } = new URL(server.url);
      const inFlight = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/auth/request',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      });
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        inFlight.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        inFlight.on('error', reject);
      });
      await new Promise<void>((resolve) => inFlight.write(body.slice(0, half), () => resolve()));

      // A second signal ends the grace period: the listeners stop accepting.
      server.child.kill('SIGTERM');
      await until('new connections are refused', () =>
        fetch(`${server.url}/health`).then(
          () => false,
          () => true,
        ),
      );
      inFlight.end(body.slice(half));
      const answer = await answered;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toMatchObject({ ok: true });
      expect(await exited).toBe(0);
      expect(server.stdout().some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
