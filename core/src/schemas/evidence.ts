import { z } from 'zod';
import { Sha256Hex, Timestamp } from './common.js';
import { EvidenceKind, EvidenceTextKind } from './enums.js';

/** Longest JSON evidence content, in UTF-16 code units; larger material goes through the upload route. */
export const EVIDENCE_CONTENT_MAX = 1_000_000;

/** Body of `POST /runs/{run_id}/evidence`. A url must be http(s); json must parse. */
export const EvidenceIn = z
  .strictObject({
    kind: EvidenceTextKind,
    label: z.string().min(1).max(200),
    content: z.string().max(EVIDENCE_CONTENT_MAX),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'url' && !isHttpUrl(value.content)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'must be an http(s) URL' });
    }
    if (value.kind === 'json' && !isJson(value.content)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'must be valid JSON' });
    }
  });

export const Evidence = z.object({
  id: z.string(),
  kind: EvidenceKind,
  label: z.string(),
  /** Present for the JSON kinds; uploaded files are fetched from the blob store instead. */
  content: z.string().optional(),
  /** Uploaded files only: the client's file name and declared media type, served back on download. */
  filename: z.string().optional(),
  content_type: z.string().optional(),
  sha256: Sha256Hex,
  size: z.int().min(0),
  created_at: Timestamp,
});

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export type EvidenceIn = z.infer<typeof EvidenceIn>;
export type Evidence = z.infer<typeof Evidence>;
