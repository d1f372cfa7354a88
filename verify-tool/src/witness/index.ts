export {
  ALG_COSIGNATURE_V1,
  cosignerKeyId,
  cosignerSigner,
  formatCosignerVkey,
  parseCosignerVkey,
  type CosignerKey,
  type CosignerSigner,
} from './cosigner-key.js';
export {
  cosignatureLine,
  cosignedMessage,
  verifyCosignatures,
  type VerifiedCosignature,
} from './cosignature.js';
export {
  checkWitnessPolicy,
  witnessPolicy,
  type WitnessCheck,
  type WitnessPolicy,
} from './policy.js';
