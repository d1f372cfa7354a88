import type { TlogProofResult } from '../tlog-proof/verify.js';
import type { WitnessCheck } from '../witness/policy.js';
import { authorshipLine } from './summary.js';

/** The witness policy's verdict as a line, or nothing when no policy was given. */
export function witnessLine(witnessed: WitnessCheck | undefined): string {
  if (witnessed === undefined) return '';
  const who = witnessed.cosigned_by.map((w) => `${w.name} (key ${w.key_id})`).join(', ');
  return witnessed.ok
    ? `WITNESSED: cosigned by ${who}\n`
    : `WITNESSES FAILED: ${witnessed.message}\n`;
}

export function tlogProofSummary(file: string, result: TlogProofResult): string {
  const lines = [
    `${file}: receipt ${result.receipt_sha256 ?? '?'} at index ${result.index ?? '?'}` +
      (result.checkpoint === null
        ? ''
        : ` in ${result.checkpoint.origin} of ${result.checkpoint.tree_size} leaves`),
  ];
  if (result.ok) lines.push('OK: the receipt is in the checkpointed tree');
  else {
    lines.push(`TAMPERED: ${result.findings.length} findings`);
    for (const f of result.findings) lines.push(`  ${f.code}: ${f.message}`);
  }
  lines.push(authorshipLine(result.authorship));
  return lines.join('\n') + '\n' + witnessLine(result.witnessed);
}
