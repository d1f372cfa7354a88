/**
 * How a lost or refused PostgreSQL connection shows itself: a socket error, pg's own "Connection
 * terminated" errors, or the server's SQLSTATE for a connection it ended or will not take.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * admin_shutdown (pg_terminate_backend, a fast shutdown), crash_shutdown, cannot_connect_now (the
 * server is starting or stopping), too_many_connections; class 08 is connection_exception.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

export function isConnectionLoss(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m));
}
