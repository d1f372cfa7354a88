export { openPostgresStorage, type PostgresStorageOptions } from './storage.js';
