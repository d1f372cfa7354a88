import type { DeploymentStateRepository } from '@runledger/core/ports';
import type { Sql } from './sql.js';

export function deploymentStateRepository(sql: Sql): DeploymentStateRepository {
  return {
    async get(name) {
      const row = await sql.get<{ value: string }>(
        'SELECT value FROM deployment_state WHERE name = ?',
        [name],
      );
      return row?.value ?? null;
    },
    async put(name, value) {
      await sql.run(
        `INSERT INTO deployment_state (name, value) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [name, value],
      );
    },
  };
}
