import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 8: fixed rate-limit windows shared by every instance on one database (docs/operations.md,
 * "Rate limits"). `key` is a hash, never an address or an e-mail; ended windows are deleted by
 * their `expires_at`.
 */
export const RATE_LIMITS_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE rate_limit_windows (
    key ${t.text} NOT NULL,
    window_start ${t.text} NOT NULL,
    expires_at ${t.text} NOT NULL,
    hits ${t.int} NOT NULL CHECK (hits >= 1),
    PRIMARY KEY (key, window_start)
  );
  CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at);
`;
