import { NoteError } from '../note/errors.js';
import { parseCosignerVkey } from '../witness/cosigner-key.js';
import { witnessPolicy, type WitnessCheck, type WitnessPolicy } from '../witness/policy.js';
import type { Report } from './report.js';

/** What the witness box holds: nothing, a policy, or why it cannot be read. */
export type WitnessInput =
  | { status: 'none' }
  | { status: 'policy'; policy: WitnessPolicy }
  | { status: 'bad'; message: string };

export const WITNESS_CHECK = 'Witness cosignatures';

/**
 * Reads the witness box (witness vkeys separated by white space) and the threshold field (empty:
 * all of them), the way `runledger-verify --witness … --witness-threshold K` reads them.
 */
export function parseWitnessText(text: string, thresholdText: string): WitnessInput {
  const vkeys = text.trim() === '' ? [] : text.trim().split(/\s+/);
  const threshold = thresholdText.trim();
  if (vkeys.length === 0) {
    return threshold === ''
      ? { status: 'none' }
      : { status: 'bad', message: 'a threshold needs at least one witness key' };
  }
  if (threshold !== '' && !/^[1-9][0-9]*$/.test(threshold))
    return { status: 'bad', message: 'the threshold is a whole number ≥ 1' };
  try {
    const keys = vkeys.map(parseCosignerVkey);
    return {
      status: 'policy',
      policy: witnessPolicy(keys, threshold === '' ? undefined : Number(threshold)),
    };
  } catch (error) {
    if (error instanceof NoteError || error instanceof RangeError)
      return { status: 'bad', message: error.message };
    throw error;
  }
}

/** The report with a row for the witness policy's verdict, its finding filed under that row. */
export function withWitnessRow(report: Report, witnessed: WitnessCheck | undefined): Report {
  if (witnessed === undefined) return report;
  const who = witnessed.cosigned_by.map((w) => `${w.name} (key ${w.key_id})`).join(', ');
  return {
    ...report,
    checks: [
      ...report.checks,
      {
        name: WITNESS_CHECK,
        status: witnessed.ok ? 'pass' : 'fail',
        detail: witnessed.ok ? `cosigned by ${who}` : witnessed.message,
      },
    ],
    findings: report.findings.map((f) =>
      f.code === 'witness_quorum' ? { ...f, check: WITNESS_CHECK } : f,
    ),
  };
}
