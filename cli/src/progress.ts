import { isTerminal, type Stream } from './terminal.js';

/**
 * A one-line progress bar with the total, the percentage and the rate, redrawn in place on stderr.
 * Nothing at all is written when the stream is not a terminal (logs, pipes, tests), so output that is
 * kept stays clean. Written to be reused: `runledger-verify` should adopt it for its own bar.
 */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

export interface ProgressOptions {
  label: string;
  /** What `done` counts: the total and the rate are shown in MB for bytes, as a count for items. */
  unit: { kind: 'bytes' } | { kind: 'items'; name: string };
  total: number;
  stream?: Stream;
  /** Milliseconds; injected by tests. */
  now?: () => number;
}

const silent: Progress = { update: () => {}, finish: () => {} };

const WIDTH = 24;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** `42/1000 receipts, 350/s` or `1.5/20.0 MB, 3.2 MB/s`. */
function amounts(options: ProgressOptions, done: number, perSecond: number): string {
  if (options.unit.kind === 'bytes') {
    return `${mb(done)}/${mb(options.total)} MB, ${mb(perSecond)} MB/s`;
  }
  return `${done}/${options.total} ${options.unit.name}, ${Math.round(perSecond)}/s`;
}

/** The line for `done` of `total` after `seconds`. Exported for tests. */
export function progressLine(options: ProgressOptions, done: number, seconds: number): string {
  const ratio = options.total <= 0 ? 1 : Math.min(1, done / options.total);
  const filled = Math.round(ratio * WIDTH);
  const percent = Math.floor(ratio * 100);
  const rate = seconds > 0 ? done / seconds : 0;
  return `${options.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${percent}% ${amounts(options, done, rate)}`;
}

/** Redraws at most every 100 ms (and always at the end), so a fast stream is not slowed by drawing. */
export function progressBar(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (!isTerminal(stream)) return silent;
  const now = options.now ?? Date.now;
  const started = now();
  let drawnAt = -Infinity;
  let latest = 0;
  const draw = (done: number) => {
    const line = progressLine(options, done, (now() - started) / 1000);
    stream.write(`\r${line}\u001b[K`);
  };
  return {
    update: (done) => {
      latest = done;
      const at = now();
      if (at - drawnAt < 100) return;
      drawnAt = at;
      draw(done);
    },
    finish: () => {
      draw(Math.max(latest, 0));
      stream.write('\n');
    },
  };
}
