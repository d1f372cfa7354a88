/**
 * Every failure the CLI reports on purpose. `usage` and `local_input` (a bad flag, a missing file)
 * exit 2; everything the server or the network refused exits 1.
 */
export type CliErrorCode =
  'usage' | 'local_input' | 'not_signed_in' | 'unreachable' | 'request_failed' | 'not_verified';

export class CliError extends Error {
  readonly code: CliErrorCode;
  /** The HTTP status when the server answered. */
  readonly status: number | undefined;

  constructor(code: CliErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.status = status;
  }

  get exitCode(): number {
    return this.code === 'usage' || this.code === 'local_input' ? 2 : 1;
  }
}
