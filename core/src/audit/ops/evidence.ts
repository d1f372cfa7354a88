import type { EvidenceCheck } from '../../schemas/flight-sheet.js';
import { type EvidenceSummary, type Finding, flag, pass, skip } from '../finding.js';

export function checkEvidence(
  check: EvidenceCheck,
  evidence: readonly EvidenceSummary[],
  optional: boolean,
): Finding {
  if (optional && evidence.length === 0) return skip('Optional: the run has no evidence.');
  const kinds = check.kinds;
  const count = kinds ? evidence.filter((e) => kinds.includes(e.kind)).length : evidence.length;
  const what = kinds ? `evidence items of kind ${kinds.join(' or ')}` : 'evidence items';
  const noun = count === 1 ? what.replace('items', 'item') : what;
  if (count >= check.min)
    return pass(`${count} ${noun} attached (at least ${check.min} required).`);
  return flag(`${count} ${noun} attached; at least ${check.min} required.`);
}
