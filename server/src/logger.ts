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
 * stdout as JSON lines; `prettyDestination()` is what LOG_FORMAT=pretty uses; tests pass a stream to
 * read every line back.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'runledger' },
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Human-readable lines on stdout (pino-pretty), written synchronously so nothing is lost at exit. */
export function prettyDestination(): DestinationStream {
  return PinoPretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}
