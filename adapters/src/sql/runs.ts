import type { RunChanges, RunRecord, RunsRepository } from '@runledger/core/ports';
import type { Verdict } from '@runledger/core/schemas';
import type { Sql, SqlParam } from './sql.js';
import { pageClause } from './paging.js';
import { selectByIds } from './id-lists.js';

interface Row extends Omit<RunRecord, 'agent_profile' | 'verdict' | 'approval'> {
  agent_profile: string | null;
  verdict: string | null;
  approval_decision: NonNullable<RunRecord['approval']>['decision'] | null;
  approval_note: string | null;
  approval_decided_by: string | null;
  approval_decided_at: string | null;
}

const fromRow = (row: Row): RunRecord => {
  const {
    agent_profile,
    verdict,
    approval_decision,
    approval_note,
    approval_decided_by,
    approval_decided_at,
    ...rest
  } = row;
  return {
    ...rest,
    agent_profile:
      agent_profile === null ? null : (JSON.parse(agent_profile) as RunRecord['agent_profile']),
    verdict: verdict === null ? null : (JSON.parse(verdict) as Verdict),
    approval:
      approval_decision === null || approval_decided_by === null || approval_decided_at === null
        ? null
        : {
            decision: approval_decision,
            note: approval_note,
            decided_by: approval_decided_by,
            decided_at: approval_decided_at,
          },
  };
};

/** The columns an update may set, each with how its value is stored. */
function setClauses(changes: RunChanges): { set: string[]; params: SqlParam[] } {
  const set: string[] = ['updated_at = ?'];
  const params: SqlParam[] = [changes.updated_at];
  if (changes.state !== undefined) {
    set.push('state = ?');
    params.push(changes.state);
  }
  if (changes.verdict !== undefined) {
    set.push('verdict = ?');
    params.push(changes.verdict === null ? null : JSON.stringify(changes.verdict));
  }
  if (changes.approval !== undefined) {
    const a = changes.approval;
    set.push(
      'approval_decision = ?',
      'approval_note = ?',
      'approval_decided_by = ?',
      'approval_decided_at = ?',
    );
    params.push(a?.decision ?? null, a?.note ?? null, a?.decided_by ?? null, a?.decided_at ?? null);
  }
  return { set, params };
}

export function runsRepository(sql: Sql): RunsRepository {
  /** One run of the org, the SELECT ending with `lock` (the dialect's row lock) when given. */
  const byId = async (orgId: string, id: string, lock: string | null) => {
    const row = await sql.get<Row>(
      `SELECT * FROM runs WHERE org_id = ? AND id = ?${lock === null ? '' : ` ${lock}`}`,
      [orgId, id],
    );
    return row ? fromRow(row) : null;
  };
  return {
    async insert(r) {
      await sql.run(
        `INSERT INTO runs (id, org_id, project_id, flight_sheet_id, flight_sheet_slug, flight_sheet_version,
           flight_sheet_sha256, title, agent_profile, state, verdict, approval_decision, approval_note,
           approval_decided_by, approval_decided_at, created_at, created_by, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r.id,
          r.org_id,
          r.project_id,
          r.flight_sheet_id,
          r.flight_sheet_slug,
          r.flight_sheet_version,
          r.flight_sheet_sha256,
          r.title,
          r.agent_profile === null ? null : JSON.stringify(r.agent_profile),
          r.state,
          r.verdict === null ? null : JSON.stringify(r.verdict),
          r.approval?.decision ?? null,
          r.approval?.note ?? null,
          r.approval?.decided_by ?? null,
          r.approval?.decided_at ?? null,
          r.created_at,
          r.created_by,
          r.updated_at,
        ],
      );
    },
    get: (orgId, id) => byId(orgId, id, null),
    getForUpdate: (orgId, id) => byId(orgId, id, sql.dialect.forUpdate),
    async getMany(orgId, ids) {
      // By primary key only, the org compared here: with `org_id = ? AND id IN (…)` and more than a
      // few ids, SQLite (no statistics) prices `org_id = ?` as a handful of rows and walks the
      // org's whole page index instead, milliseconds per batch once an org holds 10^4 runs.
      const rows = await selectByIds<Row>(
        sql,
        ids,
        [],
        (list) => `SELECT * FROM runs WHERE id IN (${list})`,
      );
      return rows.filter((row) => row.org_id === orgId).map(fromRow);
    },
    async list(orgId, filter, page) {
      const p = pageClause(page, 'created_at', 'id');
      const where: string[] = ['org_id = ?'];
      const params: SqlParam[] = [orgId];
      if (filter.project_id !== null) {
        where.push('project_id = ?');
        params.push(filter.project_id);
      }
      if (filter.state !== null) {
        where.push('state = ?');
        params.push(filter.state);
      }
      if (filter.flight_sheet_slug != null) {
        where.push('flight_sheet_slug = ?');
        params.push(filter.flight_sheet_slug);
      }
      const rows = await sql.all<Row>(
        `SELECT * FROM runs WHERE ${where.join(' AND ')}${p.where} ${p.tail}`,
        [...params, ...p.params, ...p.limit],
      );
      return rows.map(fromRow);
    },
    async update(orgId, id, expectedState, changes) {
      const { set, params } = setClauses(changes);
      const result = await sql.run(
        `UPDATE runs SET ${set.join(', ')} WHERE org_id = ? AND id = ? AND state = ?`,
        [...params, orgId, id, expectedState],
      );
      return result.changes === 1;
    },
  };
}
