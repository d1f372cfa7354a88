import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One request the receiver got: its Standard Webhooks headers and raw body. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request: a status with headers, or `hang` (no answer at all). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Sets how the next requests are answered (default 200). */
  answer: (fn: (r: Received, n: number) => Answer) => void;
  /** Waits until `predicate` holds over what was received (bounded; no timing is asserted). */
  until(predicate: (received: Received[]) => boolean, what?: string): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server recording every webhook it is sent. */
export async function startReceiver(host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  let answerFn: (r: Received, n: number) => Answer = () => ({ status: 200 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const answer = answerFn(r, received.length);
      if (answer === 'hang') return;
      res.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hook`,
    received,
    answer: (fn) => (answerFn = fn),
    async until(predicate, what = 'deliveries') {
      for (let i = 0; i < 9000; i++) {
        if (predicate(received)) return received;
        await sleep(20);
      }
      throw new Error(`receiver never saw ${what}; got ${received.length}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers as the `standardwebhooks` verifier takes them. */
export const swHeaders = (r: Received) => ({
  'webhook-id': r.id,
  'webhook-timestamp': r.timestamp,
  'webhook-signature': r.signature,
});

/**
 * Keeps a test server's manual clock on real time, so `webhook-timestamp` is within the receiver's
 * tolerance and short retry delays fall due. Returns the function that stops it.
 */
export function followRealTime(clock: { now(): Date; advance(ms: number): void }): () => void {
  const sync = () => clock.advance(Date.now() - clock.now().getTime());
  sync();
  const timer = setInterval(sync, 5);
  return () => clearInterval(timer);
}
