import { describe, expect, it } from 'vitest';
import { audit } from '../audit/audit.js';
import { BUILTIN_FLIGHT_SHEETS } from '../flight-sheets/builtin.js';
import { gradeTaskResult } from './grading.js';

const sheet = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === 'agent-task-report')!;

/** A sheet whose rules cannot be read, so grading throws `message`. */
function throwingSheet(message: string): typeof sheet {
  return Object.defineProperty({ ...sheet }, 'audit_checks', {
    get() {
      throw new Error(message);
    },
  });
}

describe('gradeTaskResult', () => {
  it('completes a task with the checks of the core audit', () => {
    const submission = { task: 'x', status: 'completed' };
    expect(gradeTaskResult({ flight_sheet: sheet, submission, evidence: [] })).toEqual({
      kind: 'complete',
      checks: audit(sheet, submission, []).checks,
    });
  });

  it('turns a grading that throws into a fail with the reason, cut to the 2000 characters a fail body allows', () => {
    expect(
      gradeTaskResult({ flight_sheet: throwingSheet('bad rules'), submission: {}, evidence: [] }),
    ).toEqual({ kind: 'fail', error: 'grading failed: bad rules' });
    const long = gradeTaskResult({
      flight_sheet: throwingSheet('x'.repeat(5000)),
      submission: {},
      evidence: [],
    });
    expect(long).toEqual({ kind: 'fail', error: `grading failed: ${'x'.repeat(1984)}` });
  });
});
