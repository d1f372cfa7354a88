import type { z } from 'zod';
import { assertSafePatterns } from '../audit/safe-pattern.js';
import { assertSchemaCompiles } from '../audit/schema-validator.js';
import { invalidInput } from '../errors.js';
import { CATEGORY_OF_OP, FlightSheetInput } from '../schemas/flight-sheet.js';

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

/**
 * Checks an owner-created flight sheet beyond its shape: thresholds in order, unique rule keys,
 * each auto rule's category matching its op, and an output schema that compiles with safe patterns.
 * Throws RunledgerError('invalid_input') naming the first problem.
 */
export function validateFlightSheetInput(input: unknown): FlightSheetInput {
  const parsed = FlightSheetInput.safeParse(input);
  if (!parsed.success)
    throw invalidInput(`invalid flight sheet: ${describeIssues(parsed.error.issues)}`);
  const sheet = parsed.data;

  if (sheet.fail_threshold > sheet.pass_threshold) {
    throw invalidInput(
      `fail_threshold (${sheet.fail_threshold}) must not exceed pass_threshold (${sheet.pass_threshold})`,
    );
  }
  const seen = new Set<string>();
  for (const [index, rule] of sheet.audit_checks.entries()) {
    if (seen.has(rule.key))
      throw invalidInput(`audit_checks.${index}: duplicate rule key "${rule.key}"`);
    seen.add(rule.key);
    if (rule.kind === 'auto' && CATEGORY_OF_OP[rule.check.op] !== rule.category) {
      throw invalidInput(
        `audit_checks.${index}: rule "${rule.key}" has category ${rule.category} but op ${rule.check.op} belongs to ${CATEGORY_OF_OP[rule.check.op]}`,
      );
    }
  }
  assertSafePatterns(sheet.required_output_schema);
  try {
    assertSchemaCompiles(sheet.required_output_schema);
  } catch (error) {
    throw invalidInput(`required_output_schema does not compile: ${(error as Error).message}`);
  }
  return sheet;
}
