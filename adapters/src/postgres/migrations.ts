import { postgresDialect } from '../sql/dialect.js';
import { migrate as migrateShared, sharedMigrations, type Migration } from '../sql/migrate.js';
import type { Connection } from './connection.js';
import { INTAKE_SCHEMA_SQL } from './intake-schema.js';
import { MERKLE_SCHEMA } from '../sql/schema/merkle.js';
import { AUDIT_SCHEMA } from '../sql/schema/audit.js';
import { RATE_LIMITS_SCHEMA } from '../sql/schema/rate-limits.js';
import { DEPLOYMENT_SCHEMA } from '../sql/schema/deployment.js';
import { SHARE_IDENTITY_SCHEMA } from '../sql/schema/share-identity.js';
import { WEBHOOKS_SCHEMA } from '../sql/schema/webhooks.js';
import { WITNESSES_SCHEMA } from '../sql/schema/witnesses.js';

/**
 * Append-only, with the SQLite adapter's version numbers and names: a released migration never
 * changes; a schema change is a new version in both adapters.
 */
export const migrations: readonly Migration[] = [
  ...sharedMigrations(postgresDialect),
  { version: 5, name: 'incidents, payment events, dataset staging', sql: INTAKE_SCHEMA_SQL },
  { version: 6, name: 'merkle trees', sql: MERKLE_SCHEMA(postgresDialect.types) },
  { version: 7, name: 'audit receipts', sql: AUDIT_SCHEMA(postgresDialect.types) },
  { version: 8, name: 'rate limit windows', sql: RATE_LIMITS_SCHEMA(postgresDialect.types) },
  { version: 9, name: 'deployment state', sql: DEPLOYMENT_SCHEMA(postgresDialect.types) },
  { version: 10, name: 'share identity', sql: SHARE_IDENTITY_SCHEMA(postgresDialect.types) },
  { version: 11, name: 'webhooks', sql: WEBHOOKS_SCHEMA(postgresDialect.types) },
  { version: 12, name: 'witnessed checkpoints', sql: WITNESSES_SCHEMA(postgresDialect.types) },
];

/** Applies the migrations not yet recorded in schema_migrations, each in its own transaction. */
export function migrate(connection: Connection): Promise<number[]> {
  return migrateShared(connection, postgresDialect, migrations);
}
