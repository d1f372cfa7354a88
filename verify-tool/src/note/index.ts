export { base64Decode, base64Encode } from './base64.js';
export { NoteError, type NoteErrorKind } from './errors.js';
export {
  formatSkey,
  formatVkey,
  keyIdHex,
  noteKeyId,
  noteSigner,
  parseSkey,
  parseVkey,
  verifierOf,
  type NoteSigner,
  type NoteVerifier,
} from './keys.js';
export { openNote, parseNote, signNote, type OpenedNote, type SignatureLine } from './note.js';
export {
  checkpointTime,
  formatCheckpoint,
  ledgerOrigin,
  parseCheckpoint,
  timeExtension,
  type Checkpoint,
} from './checkpoint.js';
export {
  keysValidAt,
  parseKeysDocument,
  publishedKey,
  trustVkey,
  type KeysDocument,
  type PublishedKey,
  type TrustedKey,
} from './keyring.js';
