import { RunledgerError } from '@runledger/core';
import type { z } from 'zod';

/** Turns the first zod issue into a 400 whose detail names the field, e.g. `body.email: Invalid email address`. */
export function validationError(error: z.ZodError, where: string): RunledgerError {
  const issue = error.issues[0];
  if (!issue) return new RunledgerError('invalid_input', `${where}: invalid`);
  let field = [where, ...issue.path.map(String)].join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    field = [field, issue.keys[0] ?? ''].filter(Boolean).join('.');
    message = 'unknown field';
  }
  return new RunledgerError('invalid_input', `${field}: ${message}`);
}
