import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

/**
 * Every header that carries a credential, lower case: `server/src/logger.test.ts` checks that each
 * header the server reads a credential from is here.
 */
export const CREDENTIAL_HEADERS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-internal-key',
  'x-registration-key',
  'x-runner-token',
  'x-signature',
] as const;

/**
 * What the logger censors, whatever object a caller passes in: credential headers of a request or
 * response, raw URLs and queries (share links, sign-in and invite links carry their token in the
 * path or query; the access log logs the declared route instead), and token-like fields.
 */
export const REDACT_PATHS: readonly string[] = [
  ...CREDENTIAL_HEADERS.flatMap((h) => [
    `req.headers["${h}"]`,
    `res.headers["${h}"]`,
    `headers["${h}"]`,
  ]),
  'req.url',
  'req.originalUrl',
  'req.query',
  '*.token',
  '*.access_token',
  '*.lease_token',
  '*.claim_token',
  '*.share_token',
  '*.key',
  '*.dev_link',
  '*.password',
];

/**
 * Credentials never reach the log, whatever object a caller passes in. `destination` defaults to
 * stdout as JSON lines (jsonLinesOnStdout); `prettyDestination()` is what LOG_FORMAT=pretty uses;
 * tests pass a stream to read every line back.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'runledger' },
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
  };
  return pino(options, destination ?? jsonLinesOnStdout());
}

/**
 * Stdout written off the event loop: each line joins a buffer that the thread pool writes while the
 * server goes on, and lines logged during one write leave together in the next. pino's default
 * writes every line synchronously, one `write(2)` per request on the thread that serves them all
 * (docs/decisions.md). What is still buffered is written synchronously when the process exits,
 * by `process.exit` or an uncaught error; only an end with no exit event (SIGKILL, a signal with
 * no handler, Node itself failing) loses it.
 */
function jsonLinesOnStdout(): DestinationStream {
  return pino.destination({ dest: process.stdout.fd, sync: false });
}

/** Human-readable lines on stdout (pino-pretty), written synchronously so nothing is lost at exit. */
export function prettyDestination(): DestinationStream {
  return PinoPretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}
