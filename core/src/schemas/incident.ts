import { z } from 'zod';
import { IncidentKind } from './enums.js';

/** Body of `POST /runs/{run_id}/incidents`; `single_flag` is not a kind, so it is a 400. */
export const IncidentIn = z.strictObject({
  kind: IncidentKind,
  note: z.string().max(4000).optional(),
});

export type IncidentIn = z.infer<typeof IncidentIn>;
