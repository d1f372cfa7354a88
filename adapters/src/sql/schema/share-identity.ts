import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 10: how an organization's shared receipts show people (docs/share.md, "Names"):
 * `email` (while a member; the behaviour before this column) or `id` only.
 */
export const SHARE_IDENTITY_SCHEMA = (t: ColumnTypes): string => `
  ALTER TABLE orgs ADD COLUMN share_identity ${t.text} NOT NULL DEFAULT 'email'
    CHECK (share_identity IN ('email', 'id'));
`;
