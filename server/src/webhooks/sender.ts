import http from 'node:http';
import https from 'node:https';
import { isIP, type BlockList } from 'node:net';
import { addressAllowed } from './address-policy.js';
import { guardedLookup } from './guarded-lookup.js';
import { hostOf } from './url-guard.js';

/** An attempt that has not answered within this long fails (docs/webhooks.md). */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** How much of an answer's body is read (and dropped): receivers' bodies are not kept. */
const MAX_BODY_BYTES = 64 * 1024;

/** An attempt's answer: its status (null when none came), latency, error and `Retry-After` header. */
export interface SendResult {
  status: number | null;
  latency_ms: number;
  error: string | null;
  retry_after: string | null;
}

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): void;
}

const failed = (started: number, error: string): SendResult => ({
  status: null,
  latency_ms: performance.now() - started,
  error,
  retry_after: null,
});

/**
 * POSTs deliveries over keep-alive agents whose `lookup` refuses disallowed addresses at connect
 * time (an IP literal is checked here, as it is never looked up). Redirects are not followed: a 3xx
 * is a failed attempt like any other non-2xx.
 */
export function createSender(allow: BlockList, timeoutMs = ATTEMPT_TIMEOUT_MS): Sender {
  const lookup = guardedLookup(allow);
  const options = { keepAlive: true, maxSockets: 64, lookup };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    send(url, headers, body) {
      const started = performance.now();
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return Promise.resolve(failed(started, 'invalid url'));
      }
      const host = hostOf(target);
      if (isIP(host) !== 0 && !addressAllowed(host, allow)) {
        return Promise.resolve(failed(started, `refused address ${host}`));
      }
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') return Promise.resolve(failed(started, 'scheme'));
      return new Promise((resolve) => {
        const request = (secure ? https : http).request(target, {
          method: 'POST',
          agent: secure ? agents.https : agents.http,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'runledger-webhooks/1',
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        request.on('response', (response) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_BODY_BYTES) response.destroy();
          });
          const done = () =>
            resolve({
              status: response.statusCode ?? null,
              latency_ms: performance.now() - started,
              error: null,
              retry_after: response.headers['retry-after'] ?? null,
            });
          response.on('end', done);
          response.on('close', done);
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          const timedOut = error.name === 'TimeoutError' || error.name === 'AbortError';
          resolve(failed(started, timedOut ? 'timeout' : (error.code ?? error.message)));
        });
        request.end(body);
      });
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
