/**
 * What went wrong, in the terms the HTTP layer maps to a status (docs/design.md#errors-and-input).
 * Domain code throws RunledgerError; the server's single error middleware turns `code` into a status
 * and `message` into `{detail}`.
 */
export type RunledgerErrorCode =
  | 'invalid_input' // 400
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404 (also for another organization's ids)
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unsupported_media_type' // 415
  | 'rate_limited' // 429
  | 'unavailable'; // 503 (an internal credential is not configured)

export class RunledgerError extends Error {
  readonly code: RunledgerErrorCode;

  constructor(code: RunledgerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunledgerError';
    this.code = code;
  }
}

export const invalidInput = (message: string) => new RunledgerError('invalid_input', message);
export const notFound = (what: string) => new RunledgerError('not_found', `${what} not found`);
export const conflict = (message: string) => new RunledgerError('conflict', message);
export const forbidden = (message: string) => new RunledgerError('forbidden', message);
export const unauthenticated = (message = 'authentication required') =>
  new RunledgerError('unauthenticated', message);
