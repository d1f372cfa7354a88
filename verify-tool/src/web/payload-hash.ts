import { PAYLOAD_KEY } from '../export/parse.js';
import { toHex } from '../hash/hex.js';

const KEY = new TextEncoder().encode(PAYLOAD_KEY);

/** Where `,"payload":` first starts in a line's bytes, or -1. */
function payloadKeyAt(line: Uint8Array): number {
  for (let at = line.indexOf(KEY[0]!); at !== -1; at = line.indexOf(KEY[0]!, at + 1)) {
    let i = 1;
    while (i < KEY.length && line[at + i] === KEY[i]) i += 1;
    if (i === KEY.length) return at;
  }
  return -1;
}

type Digest = (bytes: Uint8Array) => Promise<ArrayBuffer>;

/** The browser's native SHA-256 (WebCrypto, in secure contexts: https, localhost, file://), if any. */
const subtle = (globalThis as { crypto?: { subtle?: { digest: unknown } } }).crypto?.subtle as
  { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> } | undefined;
const nativeDigest: Digest | null =
  subtle === undefined ? null : (bytes) => subtle.digest('SHA-256', bytes);

/**
 * SHA-256 (hex) of each export line's payload bytes, hashed natively and in parallel, as the Node
 * reader hashes them from its buffer (io/verify-files.ts): the slice between the first
 * `,"payload":` and the final `}`, the same bytes as the text slice the parser takes. Undefined for
 * a line of another layout (the verifier then hashes the canonical payload itself), and for every
 * line where WebCrypto is missing (the pure-JS hash in the library does all the work then).
 */
export async function payloadHashes(
  lines: readonly Uint8Array[],
  digest: Digest | null = nativeDigest,
): Promise<(string | undefined)[]> {
  if (digest === null) return lines.map(() => undefined);
  return Promise.all(
    lines.map(async (line) => {
      const at = payloadKeyAt(line);
      if (at <= 0 || line[line.length - 1] !== 0x7d) return undefined;
      return toHex(new Uint8Array(await digest(line.subarray(at + KEY.length, line.length - 1))));
    }),
  );
}
