/** Cryptographically secure random bytes (CSPRNG in production). */
export interface Random {
  bytes(length: number): Uint8Array;
}
