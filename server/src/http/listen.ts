import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { serverObjects } from './born-as.js';
import { answerClientError } from './client-error.js';

export interface Listener {
  /** http://host:port as bound (port 0 resolves to the port the OS picked). */
  url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
  /**
   * The Express app this listener serves from now on: its requests and responses are then born with
   * the app's prototypes, which spares Express a costly swap per request (born-as.ts).
   */
  adopt(app: Express): void;
}

/** Listens on host:port and resolves once bound; rejects (nothing left open) when binding fails. */
export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<Listener> {
  const objects = serverObjects();
  const server: Server = createServer(objects.options, handler).listen(port, host);
  server.on('clientError', answerClientError);
  await once(server, 'listening');

  const address = server.address() as AddressInfo;
  const bound = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const shown = bound === '0.0.0.0' || bound === '[::]' ? 'localhost' : bound;
  const url = `http://${shown}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Idle keep-alive connections would hold close() open forever; busy ones finish their request first.
      server.closeIdleConnections();
      await closed;
    })();
    return closing;
  };
  return { url, close, adopt: objects.adopt };
}
