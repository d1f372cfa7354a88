import type { Engine } from './postgres.js';
import { startTestServer, type TestServer } from './server.js';
import { followRealTime, startReceiver, type Receiver } from './webhook-receiver.js';

export interface WebhookTestBed {
  server: TestServer;
  receiver: Receiver;
  /** Stops the clock's following, the server and the receiver. */
  close(): Promise<void>;
}

/**
 * A receiver and a test server that may deliver to it (127.0.0.1 allowed, a 20 ms poll), the
 * server's clock following real time; `env` adds to or overrides those settings.
 */
export async function startWebhookTestBed(
  env: Record<string, string> = {},
  engine: Engine = 'sqlite',
): Promise<WebhookTestBed> {
  const receiver = await startReceiver();
  const server = await startTestServer(
    { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32', WEBHOOK_POLL_MS: '20', ...env },
    { engine },
  );
  const stopClock = followRealTime(server.clock);
  return {
    server,
    receiver,
    async close() {
      stopClock();
      await server.close();
      await receiver.close();
    },
  };
}
