/** Port doubles for tests of code built on the SDK: `@runledger/core/testing`. */
export { CapturingMailer } from './capturing-mailer.js';
export { ManualClock } from './manual-clock.js';
export { testCheckpointSigner } from './checkpoint-signer.js';
