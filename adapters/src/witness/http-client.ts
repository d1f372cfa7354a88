import type { WitnessClient } from '@runledger/core/ports';

/** Witness requests give up after this long: a slow witness delays only its own cosignature. */
const TIMEOUT_MS = 10_000;

/** The witnesses' add-checkpoint endpoint over HTTP(S), with keep-alive (fetch's default). */
export function httpWitnessClient(timeoutMs = TIMEOUT_MS): WitnessClient {
  return {
    async addCheckpoint(witness, body) {
      const url = `${witness.url.replace(/\/+$/, '')}/add-checkpoint`;
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        body: await response.text(),
      };
    },
  };
}
