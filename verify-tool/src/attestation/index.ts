export {
  IN_TOTO_PAYLOAD_TYPE,
  openEnvelope,
  pae,
  signEnvelope,
  type DsseEnvelope,
  type DsseSignature,
  type EnvelopeSigner,
} from './dsse.js';
export {
  LEVEL_PREFIX,
  RUNLEDGER_EXTENSION,
  STATEMENT_TYPE,
  VERIFIER_VERSION,
  VSA_PREDICATE_TYPE,
  buildReceiptStatement,
  verificationResultOf,
  verifiedLevelsOf,
  type ReceiptStatement,
  type StatementInput,
  type VerificationResult,
} from './statement.js';
export {
  verifyAttestation,
  type AttestationFinding,
  type AttestationFindingCode,
  type AttestationResult,
} from './verify.js';
export { attestReceipt } from './attest.js';
export { SIGSTORE_BUNDLE_V03, sigstoreBundle, type SigstoreBundle } from './sigstore.js';
