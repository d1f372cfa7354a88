import { GENESIS_PARENT, canonicalJson, receiptId } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { RunledgerError, conflict, invalidInput } from '../errors.js';
import type { ChainHead } from '../ports/run-storage.js';
import type { CheckStatus } from '../schemas/enums.js';
import { RunReceiptPayload } from './payload.js';
import type { z } from 'zod';

/** The newest receipt of an organization: all minting needs to know about the chain. */
type Timestamp = Date | string;
type P = RunReceiptPayload;

/**
 * What minting reads from the run's records. Only the named fields enter the payload, so a
 * record passed with more fields leaks nothing else into the receipt. Dates may be Date objects
 * or ISO strings with milliseconds.
 */
export interface ReceiptInput {
  head: ChainHead | null;
  orgId: string;
  /** RECEIPT_PREFIX, e.g. `rcpt`. */
  prefix: string;
  run: Omit<P['run'], 'created_at'> & { created_at: Timestamp };
  flightSheet: P['flight_sheet'];
  submissionSha256: string;
  /** In the order the run shows them (the storage layer passes creation order). */
  evidence: readonly P['evidence'][number][];
  /** In the order the run shows them; an `open` one is refused (the run was finalized). */
  checks: readonly (Omit<P['checks'][number], 'status' | 'detail'> & {
    status: CheckStatus;
    detail?: string | null;
  })[];
  verdict: P['verdict'];
  approval: {
    decision: string;
    note?: string | null;
    decided_by: string;
    decided_at: Timestamp;
  };
  now: Date;
}

export interface BuiltReceipt {
  payload: RunReceiptPayload;
  /** The canonical JSON (RFC 8785) text that was hashed; storage keeps exactly these bytes. */
  payload_text: string;
  receipt_sha256: string;
  receipt_id: string;
  org_seq: number;
  parent_hash: string;
}

/** A prefix without `-`, so a receipt id splits unambiguously into its three parts. */
export const RECEIPT_PREFIX = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const SHA256 = /^[0-9a-f]{64}$/;

function iso(t: Timestamp): string {
  if (typeof t === 'string') return t;
  if (!Number.isFinite(t.getTime())) throw invalidInput('receipt time is not a valid date');
  return t.toISOString();
}

/** Where the next receipt sits: genesis, or one past the head and pointing at it. */
export function nextLink(head: ChainHead | null): { org_seq: number; parent_hash: string } {
  if (head === null) return { org_seq: 0, parent_hash: GENESIS_PARENT };
  if (
    !Number.isSafeInteger(head.org_seq) ||
    head.org_seq < 0 ||
    !SHA256.test(head.receipt_sha256)
  ) {
    throw invalidInput('the chain head is malformed');
  }
  return { org_seq: head.org_seq + 1, parent_hash: head.receipt_sha256 };
}

/** A payload draft parsed by its schema; an invalid one is invalid_input naming the first issue. */
export function validPayload<S extends z.ZodType>(schema: S, draft: unknown, what: string) {
  const parsed = schema.safeParse(draft);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown';
    throw new RunledgerError('invalid_input', `${what} payload is invalid at ${where}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Builds, validates and hashes the payload of a run receipt (docs/design.md#receipts-and-the-chain). Pure: the
 * caller reads the head and inserts the result in one transaction, under UNIQUE(org_id, org_seq).
 */
export function buildReceipt(input: ReceiptInput): BuiltReceipt {
  if (!RECEIPT_PREFIX.test(input.prefix))
    throw invalidInput('receipt prefix must be letters, digits or _');
  if (input.approval.decision !== 'approved') {
    throw conflict(
      `receipts are minted only for approved runs; the decision is ${input.approval.decision}`,
    );
  }
  const { org_seq, parent_hash } = nextLink(input.head);
  const { run, flightSheet: fs, verdict, approval } = input;

  const draft = {
    v: 1,
    type: 'run_receipt',
    org_id: input.orgId,
    org_seq,
    parent_hash,
    minted_at: iso(input.now),
    run: {
      id: run.id,
      title: run.title,
      project_id: run.project_id,
      created_by: run.created_by,
      created_at: iso(run.created_at),
    },
    flight_sheet: { id: fs.id, slug: fs.slug, version: fs.version, sha256: fs.sha256 },
    submission_sha256: input.submissionSha256,
    evidence: input.evidence.map((e) => ({
      id: e.id,
      kind: e.kind,
      label: e.label,
      sha256: e.sha256,
      size: e.size,
    })),
    checks: input.checks.map((c) => ({
      key: c.key,
      category: c.category,
      kind: c.kind,
      severity: c.severity,
      tier: c.tier,
      status: c.status,
      detail: c.detail ?? null,
    })),
    verdict: { outcome: verdict.outcome, severity: verdict.severity, score: verdict.score },
    approval: {
      decision: approval.decision,
      note: approval.note ?? null,
      decided_by: approval.decided_by,
      decided_at: iso(approval.decided_at),
    },
  };

  return sealed(validPayload(RunReceiptPayload, draft, 'receipt'), input.prefix);
}

/** A validated payload with its canonical text, hash and id: what storage inserts. */
export function sealed<P extends { org_seq: number; parent_hash: string }>(
  payload: P,
  prefix: string,
) {
  const payload_text = canonicalJson(payload);
  const receipt_sha256 = sha256Hex(payload_text);
  return {
    payload,
    payload_text,
    receipt_sha256,
    receipt_id: receiptId(prefix, payload.org_seq, receipt_sha256),
    org_seq: payload.org_seq,
    parent_hash: payload.parent_hash,
  };
}
