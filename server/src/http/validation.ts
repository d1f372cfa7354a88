import { RunledgerError } from '@runledger/core';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * In a union (a sheet id or an inline sheet), the branch whose type matched explains the problem
 * ("body.flight_sheet.pass_threshold: …"), not the union's bare "Invalid input".
 */
function explainUnion(issue: Issue): { path: PropertyKey[]; issue: Issue } {
  if (issue.code !== 'invalid_union') return { path: [], issue };
  const matched = issue.errors.find(
    (branch) => branch[0] && !(branch[0].code === 'invalid_type' && branch[0].path.length === 0),
  );
  const inner = matched?.[0];
  if (!inner) return { path: [], issue };
  const deeper = explainUnion(inner);
  return { path: [...inner.path, ...deeper.path], issue: deeper.issue };
}

/** Turns the first zod issue into a 400 whose detail names the field, e.g. `body.email: Invalid email address`. */
export function validationError(error: z.ZodError, where: string): RunledgerError {
  const first = error.issues[0];
  if (!first) return new RunledgerError('invalid_input', `${where}: invalid`);
  const { path: inner, issue } = explainUnion(first);
  let field = [where, ...first.path.map(String), ...inner.map(String)].join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    field = [field, issue.keys[0] ?? ''].filter(Boolean).join('.');
    message = 'unknown field';
  }
  return new RunledgerError('invalid_input', `${field}: ${message}`);
}
