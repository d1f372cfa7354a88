import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** One server's request and response constructors, and the prototypes their objects are born with. */
export interface ServerObjects {
  /** What `createServer` takes to build each request and response with these constructors. */
  options: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
  /** From now on, requests and responses are born with `app`'s own prototypes. */
  adopt(app: Express): void;
}

type Construct<T, A extends unknown[]> = (this: T, ...args: A) => void;

/**
 * Express's `app.handle` swaps the prototype of every request and response it serves for the app's
 * (`Object.setPrototypeOf` to `app.request`, `app.response`). V8 answers a prototype swap on a live
 * object by moving it to slow dictionary mode, so every later property access on it pays: on a bare
 * Express app with one JSON route, 85 µs of server CPU per request against 21 µs when the objects are
 * born with those prototypes and the swap is a no-op (docs/decisions.md). Until `adopt`, the objects
 * are node:http's own.
 */
export function serverObjects(): ServerObjects {
  const baseRequest = IncomingMessage as unknown as Construct<IncomingMessage, [Socket]>;
  const baseResponse = ServerResponse as unknown as Construct<ServerResponse, unknown[]>;
  function Request(this: IncomingMessage, socket: Socket) {
    baseRequest.call(this, socket);
  }
  function Response(this: ServerResponse, ...args: unknown[]) {
    baseResponse.call(this, ...args);
  }
  Request.prototype = IncomingMessage.prototype;
  Response.prototype = ServerResponse.prototype;
  return {
    options: {
      IncomingMessage: Request as unknown as typeof IncomingMessage,
      ServerResponse: Response as unknown as typeof ServerResponse,
    },
    adopt(app) {
      Request.prototype = app.request;
      Response.prototype = app.response;
    },
  };
}
