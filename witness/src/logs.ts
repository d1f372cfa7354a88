import { parseVkey, type NoteVerifier } from '@runledger/verify/note';

/**
 * The logs a witness accepts, from `--log ORIGIN=VKEY`: an exact origin, or a prefix written
 * `PREFIX/*` standing for every origin that starts with `PREFIX/` (a deployment's organizations),
 * each with the log's signed-note verifier key.
 */
export interface LogRule {
  origin: string;
  prefix: boolean;
  key: NoteVerifier;
}

export function parseLogRule(spec: string): LogRule {
  const at = spec.indexOf('=');
  if (at <= 0) throw new Error(`--log ${spec}: expected ORIGIN=VKEY`);
  const origin = spec.slice(0, at);
  if (/\s/.test(origin)) throw new Error(`--log ${spec}: the origin has white space`);
  let key: NoteVerifier;
  try {
    key = parseVkey(spec.slice(at + 1));
  } catch (error) {
    throw new Error(`--log ${origin}: ${(error as Error).message}`, { cause: error });
  }
  const prefix = origin.endsWith('/*');
  return { origin: prefix ? origin.slice(0, -1) : origin, prefix, key };
}

/** The keys trusted for an origin, or null when no rule names it (answered 404). */
export function keysFor(rules: readonly LogRule[], origin: string): NoteVerifier[] | null {
  const matching = rules.filter((r) =>
    r.prefix ? origin.startsWith(r.origin) && origin.length > r.origin.length : r.origin === origin,
  );
  return matching.length === 0 ? null : matching.map((r) => r.key);
}
