import { TRIBUNAL_SCHEMA_SQL as SQLITE_TRIBUNAL_SCHEMA_SQL } from '../sqlite/tribunal-schema.js';
import { portDdl } from './ddl.js';

/** Migration 4: tribunal verdicts and tasks, ported from the SQLite DDL (same partial unique index). */
export const TRIBUNAL_SCHEMA_SQL = portDdl(SQLITE_TRIBUNAL_SCHEMA_SQL);
