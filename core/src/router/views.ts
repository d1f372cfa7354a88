import { membershipActive } from './membership.js';
import type {
  ComputeNodeRecord,
  DatasetRecord,
  JobArtifactRecord,
  JobRecord,
  RouterMemberRecord,
  WorkerRecord,
} from '../ports/router-storage.js';
import type {
  ComputeNode,
  Dataset,
  RouterJob,
  RouterMember,
  RouterWorker,
} from '../schemas/router.js';

/** Records → wire objects. Nothing here ever copies a token hash out. */

export function memberActive(m: RouterMemberRecord, now: Date): boolean {
  return membershipActive(m.expires_at === null ? null : new Date(m.expires_at), now);
}

export function toMember(m: RouterMemberRecord, now: Date): RouterMember {
  return {
    member_id: m.member_id,
    email: m.email,
    name: m.name,
    status: memberActive(m, now) ? 'active' : 'inactive',
    activated_at: m.activated_at,
    expires_at: m.expires_at,
    created_at: m.created_at,
  };
}

export function toDataset(d: DatasetRecord): Dataset {
  return {
    dataset_id: d.dataset_id,
    name: d.name,
    description: d.description,
    status: d.status,
    error: d.error,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toNode(n: ComputeNodeRecord): ComputeNode {
  return {
    node_id: n.node_id,
    name: n.name,
    node_class: n.node_class,
    status: n.status,
    created_at: n.created_at,
  };
}

export function toWorker(w: WorkerRecord, liveLeases: number): RouterWorker {
  return {
    worker_id: w.worker_id,
    name: w.name,
    node_class: w.node_class,
    created_at: w.created_at,
    last_seen_at: w.last_seen_at,
    live_leases: liveLeases,
  };
}

const parseObject = (text: string | null): Record<string, unknown> | null =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

export function toJob(
  j: JobRecord,
  artifacts: JobArtifactRecord[],
  maxAttempts: number,
): RouterJob {
  const held = j.status === 'leased' || j.status === 'running';
  return {
    job_id: j.job_id,
    member_id: j.member_id,
    type: j.type,
    status: j.status,
    node_class: j.node_class,
    hours: j.hours,
    hourly_rate: j.hourly_rate,
    estimated_amount: j.estimated_amount,
    currency: 'USD',
    attempt: j.attempt,
    max_attempts: maxAttempts,
    input: parseObject(j.input),
    worker_id: j.worker_id,
    lease_expires_at: held ? j.lease_expires_at : null,
    progress: j.progress,
    message: j.message,
    log_lines: j.log_lines,
    artifacts: artifacts.map((a) => ({
      name: a.name,
      uri: a.uri,
      sha256: a.sha256,
      size: a.size,
      reported_at: a.reported_at,
    })),
    result: parseObject(j.result),
    error: j.error,
    cost: j.cost,
    billed_seconds: j.billed_seconds,
    created_at: j.created_at,
    accepted_at: j.accepted_at,
    finished_at: j.finished_at,
    updated_at: j.updated_at,
  };
}
