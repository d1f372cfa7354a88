import type { BlobStore } from '@runledger/core/ports';
import type { Route } from '../http/route.js';
import type { Readiness } from '../ops/readiness.js';

export { MAIN_API } from './components.js';
import { apiKeyRoutes } from './api-keys.js';
import { attestationRoutes } from './attestation.js';
import { auditRoutes } from './audit.js';
import { authRoutes, type AuthRouteDeps } from './auth.js';
import { decisionRoutes } from './decisions.js';
import { evidenceRoutes } from './evidence.js';
import { flightSheetRoutes } from './flight-sheets.js';
import { gradingRoutes } from './grading.js';
import { incidentRoutes } from './incidents.js';
import { internalRoutes, type InternalRouteDeps } from './internal.js';
import { checkpointRoutes } from './checkpoints.js';
import { ledgerRoutes } from './ledger.js';
import { metaRoutes } from './meta.js';
import { orgRoutes } from './org.js';
import { projectRoutes } from './projects.js';
import { runRoutes } from './runs.js';
import { shareRoutes } from './share.js';
import { submissionRoutes } from './submission.js';
import { runnerRoutes } from './tribunal-runner.js';
import { tribunalRoutes } from './tribunal.js';
import { tlogRoutes } from './tlog.js';
import { verifyPageRoutes } from './verify-page.js';
import { webhookRoutes } from './webhooks.js';
import type { WebhookUseCases } from '@runledger/core/adapter';

export interface RouteDeps extends AuthRouteDeps, Omit<InternalRouteDeps, 'runledger'> {
  /** Uploads spool into it and downloads stream from it. */
  blobs: BlobStore;
  /** RUNNER_TOKEN (null: the runner routes answer 503) and what to wake after a grading task is queued. */
  tribunal: { runnerToken: string | null; onEnqueue: () => void };
  /** What GET /ready answers. */
  readiness: Readiness;
  /** The organization's outbound webhooks (docs/webhooks.md). */
  webhooks: WebhookUseCases;
}

/** Every route of the main API, in the order they appear in /openapi.json. */
export function allRoutes(deps: RouteDeps): Route[] {
  return [
    ...metaRoutes(deps.readiness),
    ...authRoutes(deps),
    ...orgRoutes(deps),
    ...apiKeyRoutes(deps),
    ...auditRoutes(deps),
    ...webhookRoutes(deps),
    ...projectRoutes(deps),
    ...flightSheetRoutes(deps),
    ...runRoutes(deps),
    ...evidenceRoutes(deps),
    ...submissionRoutes(deps),
    ...gradingRoutes(deps),
    ...decisionRoutes(deps),
    ...incidentRoutes(deps),
    ...ledgerRoutes(deps),
    ...checkpointRoutes(deps),
    ...tlogRoutes(deps),
    ...shareRoutes(deps),
    ...attestationRoutes(deps),
    ...verifyPageRoutes(),
    ...tribunalRoutes({ runledger: deps.runledger, onEnqueue: deps.tribunal.onEnqueue }),
    ...runnerRoutes({ runledger: deps.runledger, runnerToken: deps.tribunal.runnerToken }),
    ...internalRoutes(deps),
  ];
}
