export { audit, type AuditResult, type AuditableSheet } from './audit.js';
export type { EvidenceSummary } from './finding.js';
export {
  JSON_POINTER,
  parsePointer,
  resolvePointer,
  type ResolvedPointer,
} from './json-pointer.js';
