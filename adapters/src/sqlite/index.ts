export { openSqliteStorage, type SqliteStorageOptions } from './storage.js';
export { migrations } from './migrations.js';
export type { BatchObserver } from './group-commit.js';
export { backupSqliteDatabase } from './backup.js';
