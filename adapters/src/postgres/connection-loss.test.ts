import { describe, expect, it } from 'vitest';
import { isConnectionLoss } from './connection-loss.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionLoss', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED')],
    ['a reset socket', coded('ECONNRESET')],
    ['pg_terminate_backend (admin_shutdown)', coded('57P01')],
    ['a server starting up (cannot_connect_now)', coded('57P03')],
    ['a connection_exception (class 08)', coded('08006')],
    ['pg on an ended socket', new Error('Connection terminated unexpectedly')],
    [
      'pg on a broken client',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['pg connect timing out', new Error('timeout exceeded when trying to connect')],
  ])('is true for %s', (_what, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each([
    ['a unique violation', coded('23505')],
    ['a serialization failure', coded('40001')],
    ['a plain error', new Error('boom')],
    ['no error at all', null],
  ])('is false for %s', (_what, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });
});
