import { actorId } from '../actor.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import { emitIncidentOpened } from '../webhooks/emit.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import type { IncidentRecord } from '../ports/incident-storage.js';
import { loadRun, toIncident } from '../runs/views.js';
import type { Deps } from '../deps.js';
import type { IncidentUseCases } from './api.js';
import { recurringRuleKey } from './recurring.js';

export function incidentUseCases({ storage, clock, random }: Deps): IncidentUseCases {
  return {
    async file(actor, runId, input) {
      return storage.write(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        let ruleKey = input.rule_key ?? null;
        if (input.kind === 'recurring_flag') {
          const flagged = await tx.incidents.flaggedKeysBefore(
            actor.orgId,
            run.project_id,
            run.created_at,
          );
          const flaggedHere = new Set(
            (await tx.checks.listByRun(actor.orgId, run.id))
              .filter((check) => check.status === 'flag')
              .map((check) => check.key),
          );
          ruleKey = recurringRuleKey(flagged, flaggedHere, input.rule_key);
        }
        const incident: IncidentRecord = {
          id: newId('inc', random),
          org_id: actor.orgId,
          run_id: run.id,
          kind: input.kind,
          note: input.note,
          rule_key: ruleKey,
          created_by: actorId(actor),
          created_at: nowIso(clock),
        };
        await Promise.all([tx.incidents.insert(incident), emitIncidentOpened(tx, incident)]);
        await recordAudit(
          tx,
          actor.orgId,
          auditActor(actor),
          {
            type: 'incident.opened',
            incident_id: incident.id,
            run_id: run.id,
            kind: incident.kind,
            rule_key: incident.rule_key,
          },
          new Date(incident.created_at),
        );
        return toIncident(incident);
      });
    },

    async list(actor, runId) {
      return storage.read(async (tx) => {
        const run = await loadRun(tx, actor.orgId, runId);
        return (await tx.incidents.listByRun(actor.orgId, run.id)).map(toIncident);
      });
    },
  };
}
