import type {
  WitnessedCheckpointRecord,
  WitnessedCheckpointsRepository,
} from '@runledger/core/ports';
import type { Sql } from './sql.js';

interface Row {
  org_id: string;
  log: string;
  size: number | string;
  note: string;
  cosignatures: number | string;
  witnessed_at: string;
}

const toRecord = (row: Row | undefined): WitnessedCheckpointRecord | null =>
  row === undefined
    ? null
    : { ...row, size: Number(row.size), cosignatures: Number(row.cosignatures) };

const COLUMNS = 'org_id, log, size, note, cosignatures, witnessed_at';

/** Every query walks a primary key. */
export function witnessedCheckpointsRepository(sql: Sql): WitnessedCheckpointsRepository {
  return {
    async latest(orgId, log) {
      return toRecord(
        await sql.get<Row>(
          `SELECT ${COLUMNS} FROM witnessed_checkpoints WHERE org_id = ? AND log = ?
           ORDER BY size DESC LIMIT 1`,
          [orgId, log],
        ),
      );
    },
    async atSize(orgId, log, size) {
      return toRecord(
        await sql.get<Row>(
          `SELECT ${COLUMNS} FROM witnessed_checkpoints WHERE org_id = ? AND log = ? AND size = ?`,
          [orgId, log, size],
        ),
      );
    },
    async save(r) {
      await sql.run(
        `INSERT INTO witnessed_checkpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, log, size) DO UPDATE SET note = excluded.note,
           cosignatures = excluded.cosignatures, witnessed_at = excluded.witnessed_at`,
        [r.org_id, r.log, r.size, r.note, r.cosignatures, r.witnessed_at],
      );
    },
    async position(orgId, log, witness) {
      const row = await sql.get<{ size: number | string }>(
        'SELECT size FROM witness_positions WHERE org_id = ? AND log = ? AND witness = ?',
        [orgId, log, witness],
      );
      return row === undefined ? null : Number(row.size);
    },
    async setPosition(orgId, log, witness, size, at) {
      await sql.run(
        `INSERT INTO witness_positions (org_id, log, witness, size, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id, log, witness) DO UPDATE SET size = excluded.size,
           updated_at = excluded.updated_at`,
        [orgId, log, witness, size, at],
      );
    },
  };
}
