import type { FlightSheetRecord, FlightSheetsRepository } from '@runledger/core/ports';
import type { FlightSheetInput } from '@runledger/core/schemas';
import type { Sql } from './sql.js';
import { pageClause } from './paging.js';

interface Row {
  id: string;
  org_id: string;
  content: string;
  sha256: string;
  created_at: string;
  created_by: string;
}

const COLUMNS = 'id, org_id, content, sha256, created_at, created_by';

/** MAJOR.MINOR.PATCH with each part padded to 10 digits: text order is version order. */
export function versionKey(version: string): string {
  return version
    .split('.')
    .map((part) => part.padStart(10, '0'))
    .join('.');
}

const fromRow = (row: Row): FlightSheetRecord => ({
  id: row.id,
  org_id: row.org_id,
  content: JSON.parse(row.content) as FlightSheetInput,
  sha256: row.sha256,
  created_at: row.created_at,
  created_by: row.created_by,
});

export function flightSheetsRepository(sql: Sql): FlightSheetsRepository {
  return {
    async insert(s) {
      await sql.run(
        `INSERT INTO flight_sheets (id, org_id, slug, version, version_key, lane, content, sha256, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          s.id,
          s.org_id,
          s.content.slug,
          s.content.version,
          versionKey(s.content.version),
          s.content.lane,
          JSON.stringify(s.content),
          s.sha256,
          s.created_at,
          s.created_by,
        ],
      );
    },
    async get(orgId, id) {
      const row = await sql.get<Row>(
        `SELECT ${COLUMNS} FROM flight_sheets WHERE org_id = ? AND id = ?`,
        [orgId, id],
      );
      return row ? fromRow(row) : null;
    },
    async latestBySlug(orgId, slug) {
      const row = await sql.get<Row>(
        `SELECT ${COLUMNS} FROM flight_sheets WHERE org_id = ? AND slug = ?
         ORDER BY version_key DESC LIMIT 1`,
        [orgId, slug],
      );
      return row ? fromRow(row) : null;
    },
    async list(orgId, lane, page) {
      const p = pageClause(page, 'created_at', 'id');
      const laneWhere = lane === null ? '' : ' AND lane = ?';
      const rows = await sql.all<Row>(
        `SELECT ${COLUMNS} FROM flight_sheets WHERE org_id = ?${laneWhere}${p.where} ${p.tail}`,
        [orgId, ...(lane === null ? [] : [lane]), ...p.params, ...p.limit],
      );
      return rows.map(fromRow);
    },
  };
}
