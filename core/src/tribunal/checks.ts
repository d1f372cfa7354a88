import { invalidInput } from '../errors.js';
import type { CheckDraft } from '../schemas/check.js';
import type { FlightSheetInput, FlightSheetRule } from '../schemas/flight-sheet.js';
import { tierOf } from '../tiers/tier-of.js';

/**
 * The statuses a runner may send for a rule. Checklist checks stay open: the tribunal's outcome with
 * checklist rules is at best risk (docs/design.md#tribunal), so a runner cannot grade them to pass.
 * Auto checks pass or flag; skip only when the rule is optional, as the audit itself would.
 */
function allowedStatuses(rule: FlightSheetRule): readonly CheckDraft['status'][] {
  if (rule.kind === 'checklist') return ['open'];
  return rule.optional === true ? ['pass', 'flag', 'skip'] : ['pass', 'flag'];
}

/**
 * Checks a runner's result against the sheet it graded: exactly one check per rule, each carrying
 * its rule's label, category, kind and severity, the tier of that severity, and a status the rule
 * allows. Returns the checks in the sheet's rule order; throws invalid_input naming the first problem.
 */
export function acceptRunnerChecks(
  sheet: Pick<FlightSheetInput, 'audit_checks'>,
  checks: readonly CheckDraft[],
): CheckDraft[] {
  const byKey = new Map<string, CheckDraft>();
  for (const check of checks) {
    if (byKey.has(check.key)) throw invalidInput(`checks: duplicate key "${check.key}"`);
    byKey.set(check.key, check);
  }
  const ordered = sheet.audit_checks.map((rule) => {
    const check = byKey.get(rule.key);
    if (!check) throw invalidInput(`checks: no check for rule "${rule.key}"`);
    for (const field of ['label', 'category', 'kind', 'severity'] as const) {
      if (check[field] !== rule[field]) {
        throw invalidInput(
          `checks: "${rule.key}" has ${field} ${JSON.stringify(check[field])}; the rule says ${JSON.stringify(rule[field])}`,
        );
      }
    }
    if (check.tier !== tierOf(rule.severity)) {
      throw invalidInput(
        `checks: "${rule.key}" has tier ${check.tier}; severity ${rule.severity} is tier ${tierOf(rule.severity)}`,
      );
    }
    const allowed = allowedStatuses(rule);
    if (!allowed.includes(check.status)) {
      throw invalidInput(
        `checks: "${rule.key}" has status ${check.status}; ${rule.optional === true ? 'optional ' : ''}${rule.kind} rules allow ${allowed.join(', ')}`,
      );
    }
    return check;
  });
  if (byKey.size > ordered.length) {
    const known = new Set(sheet.audit_checks.map((rule) => rule.key));
    const extra = [...byKey.keys()].find((key) => !known.has(key));
    throw invalidInput(`checks: "${extra}" is not a rule of the flight sheet`);
  }
  return ordered;
}
