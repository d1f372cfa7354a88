import { z } from 'zod';
import { queryInt } from '../http/query-int.js';

const Id = z.string().min(1).max(200);

export const RunParams = z.object({ run_id: Id }).strict();
export const RunCheckParams = z.object({ run_id: Id, check_id: Id }).strict();
export const RunEvidenceParams = z.object({ run_id: Id, evidence_id: Id }).strict();
export const ShareParams = z.object({ share_token: z.string().min(1).max(200) }).strict();

/** A non-negative integer in a query string: `?after_seq=` or `1e3` is a 400, not 0 or 1000. */
export const SeqParam = queryInt(0, Number.MAX_SAFE_INTEGER, 'digits');
