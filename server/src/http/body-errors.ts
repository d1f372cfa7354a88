/**
 * A request body that could not be read as a client error (docs/http.md, "Errors"): what
 * body-parser raises, recognized by its `type`, and what it passes on without one (a gzip or Brotli
 * stream that does not decompress carries only the status body-parser gave it).
 */

/** Errors body-parser raises, by its `type`, and what the client is told. */
const PARSER_ERRORS: Record<string, { status: number; detail: string }> = {
  'entity.parse.failed': { status: 400, detail: 'request body is not valid JSON' },
  'entity.too.large': { status: 413, detail: 'request body is too large' },
  'entity.verify.failed': { status: 400, detail: 'request body was rejected' },
  'request.aborted': { status: 400, detail: 'request was aborted' },
  'request.size.invalid': { status: 400, detail: 'request size did not match content length' },
  'charset.unsupported': { status: 415, detail: 'unsupported charset: send JSON as UTF-8' },
  'encoding.unsupported': { status: 415, detail: 'unsupported content encoding' },
};

/** Refusals whose message is our own and names the problem (server/src/http/json-bytes.ts). */
const OWN_MESSAGE = 'entity.json.refused';

/** Client statuses a body error without a known `type` may carry, and what the client is told. */
const BY_STATUS: Record<number, string> = {
  400: 'request body could not be read (a Content-Encoding that does not decode?)',
  413: 'request body is too large',
  415: 'unsupported request body',
};

interface ParserError {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
  message?: unknown;
}

/** The answer for an error raised while reading a body, or undefined when it is not one. */
export function bodyReadError(error: unknown): { status: number; detail: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, expose, message } = error as ParserError;
  if (type === OWN_MESSAGE && typeof message === 'string') return { status: 400, detail: message };
  if (typeof type === 'string' && PARSER_ERRORS[type]) return PARSER_ERRORS[type];
  // http-errors marks the statuses it made for a client (< 500) as `expose`.
  if (expose !== true || typeof status !== 'number') return undefined;
  const detail = BY_STATUS[status];
  return detail === undefined ? undefined : { status, detail };
}
