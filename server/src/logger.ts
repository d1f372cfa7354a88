import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Credentials never reach the log, whatever object a caller passes in. `destination` defaults to
 * stdout; tests pass a stream to read every line back.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'runledger' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.token',
        '*.access_token',
        '*.key',
        '*.dev_link',
        '*.password',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
