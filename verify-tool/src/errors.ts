/** Every failure this package raises carries one of these codes. */
export type VerifyErrorCode =
  'non_finite_number' | 'lone_surrogate' | 'unsupported_value' | 'cyclic_value' | 'bad_input';

export class VerifyError extends Error {
  readonly code: VerifyErrorCode;

  constructor(code: VerifyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VerifyError';
    this.code = code;
  }
}
