/**
 * Why a key, note or checkpoint was refused. Kinds follow the signed-note rules:
 * `malformed` (not a signed note, or not a checkpoint body), `invalid_signature` (a trusted key's
 * signature does not verify: the whole note is refused), `no_verified_signature` (no trusted key
 * signed it), `bad_key` (a key string is malformed).
 */
export type NoteErrorKind = 'malformed' | 'invalid_signature' | 'no_verified_signature' | 'bad_key';

export class NoteError extends Error {
  readonly kind: NoteErrorKind;

  constructor(kind: NoteErrorKind, message: string) {
    super(message);
    this.name = 'NoteError';
    this.kind = kind;
  }
}
