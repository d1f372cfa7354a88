import { pino, type Logger } from 'pino';

/** Credentials never reach the log, whatever object a caller passes in. */
export function createLogger(level: string): Logger {
  return pino({
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
  });
}
