import { RunReceiptPayload } from '@runledger/core';
import type { SharePerson, ShareView } from '@runledger/core';
import type { PublicReceipt } from '@runledger/core/schemas';

/**
 * The payload read as a run receipt. A tampered payload may no longer have that shape;
 * renderers then show the raw JSON instead of the structured sections (and `verified` is false).
 */
export function runPayloadOf(receipt: PublicReceipt): RunReceiptPayload | null {
  const parsed = RunReceiptPayload.safeParse(receipt.payload);
  return parsed.success ? parsed.data : null;
}

/** The signed checkpoint a share answer may carry (the organization's signed Merkle tree head). */
export interface ShareCheckpoint {
  /** The signed note text. */
  checkpoint: string;
  tree_size: number;
  root_hash: string;
  key_id: string;
}

/** The receipt's audit path to that checkpoint's root. */
export interface ShareInclusionProof {
  receipt_id: string;
  leaf_index: number;
  tree_size: number;
  hashes: string[];
}

interface WithProof {
  checkpoint?: ShareCheckpoint;
  inclusion_proof?: ShareInclusionProof;
}

/** The checkpoint and proof, when the share view (or its receipt) carries them. */
export function proofOf(view: ShareView): WithProof {
  const outer = view as ShareView & WithProof;
  const inner = view.receipt as PublicReceipt & WithProof;
  const checkpoint = outer.checkpoint ?? inner.checkpoint;
  const proof = outer.inclusion_proof ?? inner.inclusion_proof;
  return {
    ...(checkpoint ? { checkpoint } : {}),
    ...(proof ? { inclusion_proof: proof } : {}),
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2030-01-02T03:04:05.000Z` → `2 January 2030, 03:04:05 UTC` (always UTC, so every reader sees the same). */
export function readableTime(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  if (!match) return iso;
  const [, year, month, day, time] = match;
  return `${Number(day)} ${MONTHS[Number(month) - 1] ?? month} ${year}, ${time} UTC`;
}

/** A person as the page names them: the e-mail when the organization has one on record, else the id. */
export function personName(person: SharePerson | null, fallbackId: string): string {
  return person?.email ?? person?.id ?? fallbackId;
}
