/**
 * Every failure the CLI reports on purpose, and the exit code each calls for (docs/cli.md has the
 * table): `usage` and `local_input` (a bad flag, a missing file) exit 2, `not_signed_in` (no
 * credential, or the main API refused it) exits 4, everything else the server or the network refused
 * exits 1.
 */
export type CliErrorCode =
  'usage' | 'local_input' | 'not_signed_in' | 'unreachable' | 'request_failed' | 'not_verified';

export const EXIT = { ok: 0, failed: 1, usage: 2, signIn: 4 } as const;

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
    if (this.code === 'usage' || this.code === 'local_input') return EXIT.usage;
    if (this.code === 'not_signed_in') return EXIT.signIn;
    return EXIT.failed;
  }
}
