import type { IncidentKind } from '../schemas/enums.js';

/** An incident filed against a run (docs/design.md#tribunal); scoped by org_id like every run record. */
export interface IncidentRecord {
  id: string;
  org_id: string;
  run_id: string;
  kind: IncidentKind;
  note: string;
  rule_key: string | null;
  created_by: string;
  created_at: string;
}

/** A rule key and in how many runs it was flagged. */
export interface FlaggedKey {
  key: string;
  runs: number;
}

export interface IncidentsRepository {
  insert(incident: IncidentRecord): Promise<void>;
  /** Ordered by (created_at, id). */
  listByRun(orgId: string, runId: string): Promise<IncidentRecord[]>;
  /**
   * Every rule key with status `flag` in runs of the project created strictly before `before`, with
   * the number of distinct such runs; most runs first, then by key.
   */
  flaggedKeysBefore(orgId: string, projectId: string, before: string): Promise<FlaggedKey[]>;
}
