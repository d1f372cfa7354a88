/**
 * Every failure this package throws carries one of these codes. Findings about a ledger's
 * content (a wrong hash, a broken link) are not thrown: they are collected in a result.
 * The input codes (`bad_header`, `truncated_input`, `unreadable_input`) mean the input could
 * not be read as a whole, which the CLI reports with exit code 2 rather than 1.
 */
export type VerifyErrorCode =
  | 'non_finite_number'
  | 'lone_surrogate'
  | 'unsupported_value'
  | 'cyclic_value'
  | 'bad_input'
  | 'bad_header'
  | 'truncated_input'
  | 'unreadable_input';

export class VerifyError extends Error {
  readonly code: VerifyErrorCode;

  constructor(code: VerifyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VerifyError';
    this.code = code;
  }
}

const INPUT_CODES: ReadonlySet<VerifyErrorCode> = new Set([
  'bad_header',
  'truncated_input',
  'unreadable_input',
]);

/** True when the error means "could not read the input", not "the input was tampered with". */
export function isInputError(error: unknown): error is VerifyError {
  return error instanceof VerifyError && INPUT_CODES.has(error.code);
}
