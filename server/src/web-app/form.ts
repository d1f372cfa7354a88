import { RunledgerError } from '@runledger/core';
import type { Request } from 'express';
import type { z } from 'zod';

/** The urlencoded fields of a form post (csrf already checked). */
export const fieldsOf = (req: Request): Record<string, unknown> =>
  (req.body ?? {}) as Record<string, unknown>;

/** Parses form fields with the API's own schema; the first problem is named by its field, as the API does. */
export function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new RunledgerError('invalid_input', `${where}${issue?.message ?? 'invalid form'}`);
}

/** A text field, or undefined when absent or empty. */
export function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
