import { z } from 'zod';
import { Timestamp } from './common.js';
import { IncidentKind } from './enums.js';

/** A rule key as flight sheets write them. */
const RuleKey = z.string().trim().min(1).max(200);

/**
 * Body of `POST /runs/{run_id}/incidents`; `single_flag` is not a kind, so it is a 400.
 * `rule_key` names the rule concerned; for recurring_flag it must be a key flagged in two earlier
 * runs of the project, and when absent the server picks the most recurring one.
 */
export const IncidentIn = z.strictObject({
  kind: IncidentKind,
  note: z.string().trim().min(1).max(4000),
  rule_key: RuleKey.optional(),
});

export const Incident = z.object({
  id: z.string(),
  run_id: z.string(),
  kind: IncidentKind,
  note: z.string(),
  rule_key: z.string().nullable(),
  created_by: z.string(),
  created_at: Timestamp,
});

export const IncidentList = z.object({ incidents: z.array(Incident) });

export type IncidentIn = z.infer<typeof IncidentIn>;
export type Incident = z.infer<typeof Incident>;
export type IncidentList = z.infer<typeof IncidentList>;
