import type { Actor } from '../actor.js';
import type { Incident, IncidentIn } from '../schemas/incident.js';

/** Incidents filed against runs (docs/design.md#incidents); members and API keys may file them. */
export interface IncidentUseCases {
  /**
   * Any kind on a run of the actor's org (404 otherwise). recurring_flag needs a rule key flagged in
   * at least two runs of the same project created before this one (409 otherwise); the key is stored.
   */
  file(actor: Actor, runId: string, input: IncidentIn): Promise<Incident>;
  list(actor: Actor, runId: string): Promise<Incident[]>;
}
