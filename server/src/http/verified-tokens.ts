import { hash } from 'node:crypto';

export interface VerifiedTokens<T> {
  /** What `read` says of the token, from memory when the token was read before and verified. */
  read(token: string): T | null;
}

/**
 * What `read` (the signature and claims, jwt.ts) said of access tokens already verified, so that
 * a client's next requests with the same token skip the HMAC and the JSON parses (about 7 % of a
 * mint's CPU in a profile under load, docs/benchmarks.md). Entries are keyed by the token's
 * SHA-256, never by the token: no plaintext token is kept, and a lookup compares digests, so how
 * long it takes says nothing about a stored token. Only tokens that verify are kept (what fails is
 * read again each time, so a stream of bad tokens cannot fill the map), at most `capacity` of them,
 * the oldest dropped first. The claims are what the token itself says, so keeping them changes no
 * answer: the time window (`claimsAt`) is checked on every request, and the member's role is still
 * read from storage each time.
 */
export function verifiedTokens<T>(
  capacity: number,
  read: (token: string) => T | null,
): VerifiedTokens<T> {
  const byDigest = new Map<string, T>();
  return {
    read(token) {
      const digest = hash('sha256', token, 'base64');
      const known = byDigest.get(digest);
      if (known !== undefined) return known;
      const signed = read(token);
      if (signed === null) return null;
      if (byDigest.size >= capacity) {
        const oldest = byDigest.keys().next();
        if (oldest.done !== true) byDigest.delete(oldest.value);
      }
      byDigest.set(digest, signed);
      return signed;
    },
  };
}
