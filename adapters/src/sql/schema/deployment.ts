import type { ColumnTypes } from '../dialect.js';

/**
 * Migration 9: facts about the deployment as a whole, shared by every instance on one database,
 * by name (`signing_key_id`: the checkpoint key the deployment last started with, docs/audit.md).
 */
export const DEPLOYMENT_SCHEMA = (t: ColumnTypes): string => `
  CREATE TABLE deployment_state (
    name ${t.text} PRIMARY KEY,
    value ${t.text} NOT NULL
  );
`;
