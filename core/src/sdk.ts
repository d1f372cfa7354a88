import type { RunledgerConfig } from './config.js';
import type { RunledgerPorts } from './deps.js';
import type { AttestationUseCases } from './attestations/api.js';
import { attestationUseCases } from './attestations/use-cases.js';
import type { AuditUseCases } from './audit-receipts/api.js';
import { auditUseCases } from './audit-receipts/use-cases.js';
import type { FlightSheetUseCases } from './flight-sheets/api.js';
import { flightSheetUseCases } from './flight-sheets/use-cases.js';
import type { ApiKeyUseCases, AuthUseCases, OrgUseCases } from './identity/api.js';
import { apiKeyUseCases } from './identity/api-keys.js';
import { authUseCases } from './identity/auth.js';
import { orgUseCases } from './identity/orgs.js';
import type { IncidentUseCases } from './incidents/api.js';
import { incidentUseCases } from './incidents/use-cases.js';
import type { LedgerUseCases } from './ledger/api.js';
import { ledgerUseCases } from './ledger/use-cases.js';
import type { ProjectUseCases } from './projects/api.js';
import { projectUseCases } from './projects/projects.js';
import type { RouterUseCases } from './router/api.js';
import { routerUseCases } from './router/use-cases.js';
import type { RunUseCases } from './runs/api.js';
import { runUseCases } from './runs/use-cases.js';
import type { ShareUseCases } from './share/api.js';
import { shareUseCases } from './share/use-cases.js';
import type { TribunalUseCases } from './tribunal/api.js';
import { tribunalUseCases } from './tribunal/use-cases.js';
import type { TlogUseCases } from './witnessing/api.js';
import { tlogUseCases } from './witnessing/tlog-use-cases.js';

export interface Runledger {
  auth: AuthUseCases;
  orgs: OrgUseCases;
  apiKeys: ApiKeyUseCases;
  projects: ProjectUseCases;
  router: RouterUseCases;
  flightSheets: FlightSheetUseCases;
  runs: RunUseCases;
  incidents: IncidentUseCases;
  ledger: LedgerUseCases;
  share: ShareUseCases;
  tribunal: TribunalUseCases;
  audit: AuditUseCases;
  attestations: AttestationUseCases;
  /** Each organization's logs as C2SP tlog-tiles (docs/witnesses.md). */
  tlog: TlogUseCases;
}

/** The SDK: every use case, each in one storage transaction, over the ports given. */
export function createRunledger(ports: RunledgerPorts, config: RunledgerConfig): Runledger {
  const deps = { ...ports, config };
  return {
    auth: authUseCases(deps),
    orgs: orgUseCases(deps),
    apiKeys: apiKeyUseCases(deps),
    projects: projectUseCases(deps),
    router: routerUseCases(deps),
    flightSheets: flightSheetUseCases(deps),
    runs: runUseCases(deps),
    incidents: incidentUseCases(deps),
    ledger: ledgerUseCases(deps),
    share: shareUseCases(deps),
    tribunal: tribunalUseCases(deps),
    audit: auditUseCases(deps),
    attestations: attestationUseCases(deps),
    tlog: tlogUseCases(deps),
  };
}
