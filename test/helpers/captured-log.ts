import { Writable } from 'node:stream';
import { createLogger } from '@runledger/server';

export interface CapturedLog {
  /** The server's logger at trace level, writing every line here instead of stdout. */
  logger: ReturnType<typeof createLogger>;
  lines(): string[];
  /** The lines holding any of the secrets (an empty list is the pass). */
  leaking(secrets: Iterable<string>): string[];
}

/** The production logger (same redaction), capturing every line of every level. */
export function captureLog(): CapturedLog {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('trace', sink);
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l !== '');
  return {
    logger,
    lines,
    leaking(secrets) {
      const wanted = [...secrets].filter((s) => s.length >= 8);
      return lines().filter((line) => wanted.some((s) => line.includes(s)));
    },
  };
}
