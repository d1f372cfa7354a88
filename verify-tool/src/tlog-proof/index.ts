export { TLOG_PROOF_HEADER, formatTlogProof, parseTlogProof, type TlogProof } from './format.js';
export {
  verifyTlogProof,
  type TlogProofFindingCode,
  type TlogProofOptions,
  type TlogProofResult,
} from './verify.js';
