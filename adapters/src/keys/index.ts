export {
  checkpointSigner,
  type CheckpointSignerOptions,
  type RetiredKey,
} from './checkpoint-signer.js';
export { DEV_SIGNING_KEY_FILE, devSigningKey } from './dev-signing-key.js';
export { readOrCreateSecretFile } from './secret-file.js';
