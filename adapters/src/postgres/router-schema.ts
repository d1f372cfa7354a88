import { ROUTER_SCHEMA_SQL as SQLITE_ROUTER_SCHEMA_SQL } from '../sqlite/router-schema.js';
import { portDdl } from './ddl.js';

/** Migration 3: the router tables, ported from the SQLite DDL (same tables, indexes, checks). */
export const ROUTER_SCHEMA_SQL = portDdl(SQLITE_ROUTER_SCHEMA_SQL);
