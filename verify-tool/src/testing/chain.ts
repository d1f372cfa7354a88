import { canonicalJson } from '../canonical/json.js';
import type { LedgerEntryInput } from '../chain/types.js';
import { sha256Hex } from '../hash/sha256.js';
import { GENESIS_PARENT, receiptId } from '../receipts/id.js';

/** Builds a receipt payload for a position in the chain; it must carry org_seq and parent_hash. */
export type PayloadFactory = (orgSeq: number, parentHash: string) => Record<string, unknown>;

/**
 * Mints a valid chain the way the server does (canonical text, hash, id, link), lazily so that a
 * benchmark can stream a million receipts. Used by tests and the benchmark, not by verification.
 */
export function* generateChain(
  count: number,
  makePayload: PayloadFactory,
  prefix = 'rcpt',
): Generator<LedgerEntryInput> {
  let parent = GENESIS_PARENT;
  for (let seq = 0; seq < count; seq += 1) {
    const payload = makePayload(seq, parent);
    const payload_text = canonicalJson(payload);
    const receipt_sha256 = sha256Hex(payload_text);
    const mintedAt = payload.minted_at;
    yield {
      receipt_id: receiptId(prefix, seq, receipt_sha256),
      org_seq: seq,
      parent_hash: parent,
      receipt_sha256,
      created_at: typeof mintedAt === 'string' ? mintedAt : '2025-01-01T00:00:00.000Z',
      payload_text,
    };
    parent = receipt_sha256;
  }
}

const hex = (seed: string): string => sha256Hex(seed);

/** A run receipt payload shaped like docs/design.md#receipts-and-the-chain, about 1.5 KB, deterministic in its inputs. */
export function realisticPayload(
  orgId: string,
  orgSeq: number,
  parentHash: string,
): Record<string, unknown> {
  const at = (offsetMs: number) =>
    new Date(Date.UTC(2025, 0, 1) + orgSeq * 60_000 + offsetMs).toISOString();
  const runId = `run_${hex(`run${orgSeq}`).slice(0, 20)}`;
  const kinds = ['log', 'screenshot', 'report'];
  const categories = ['structure', 'schema', 'math', 'policy'];
  return {
    v: 1,
    type: 'run_receipt',
    org_id: orgId,
    org_seq: orgSeq,
    parent_hash: parentHash,
    minted_at: at(3_000),
    run: {
      id: runId,
      title: `Quarterly reconciliation #${orgSeq} — café ledger`,
      project_id: 'prj_7f3a9c2e41b8',
      created_by: 'usr_3b2c1d0e9f8a',
      created_at: at(0),
    },
    flight_sheet: { id: 'fs_recon_v3', slug: 'reconciliation', version: 3, sha256: hex('fs3') },
    submission_sha256: hex(`sub${orgSeq}`),
    evidence: kinds.map((kind, i) => ({
      id: `ev_${hex(`ev${orgSeq}.${i}`).slice(0, 16)}`,
      kind,
      label: `${kind} ${i + 1}`,
      sha256: hex(`evd${orgSeq}.${i}`),
      size: 1024 * (i + 1) + (orgSeq % 97),
    })),
    checks: categories.map((category, i) => ({
      key: `${category}.rule_${i}`,
      category,
      kind: i % 3 === 0 ? 'checklist' : 'auto',
      severity: ['propolis', 'jelly', 'honey'][i % 3] as string,
      tier: ['high', 'mid', 'low'][i % 3] as string,
      status: 'pass',
      detail: i === 2 ? 'sum of line items equals 1250.00' : null,
    })),
    verdict: { outcome: 'pass', severity: 'honey', score: 100 },
    approval: {
      decision: 'approved',
      note: 'Looks right.',
      decided_by: 'usr_9a8b7c6d5e4f',
      decided_at: at(2_000),
    },
  };
}
