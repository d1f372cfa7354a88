/** Where the bar is drawn: a terminal's stderr (see progressBar). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressBar {
  /** Redraws for `done` receipts (at most ten times a second, and always for the last). */
  update(done: number): void;
  /** Erases the bar, so what follows starts on a clean line. */
  clear(): void;
}

const WIDTH = 24;
const GREEN = '\u001b[32m';
const RESET = '\u001b[0m';

/**
 * A progress bar on a terminal, laid out as the runledger CLI's own
 * (`verifying [##########--------------] 42% 420000/1000000 receipts, 61000/s`). Only when the
 * stream is a TTY (nothing at all otherwise, so piped output stays clean); the bar is green only
 * when `NO_COLOR` is unset or empty (https://no-color.org) and TERM is not `dumb`, and without
 * colour the output holds no escape sequence at all.
 */
export function progressBar(
  stream: ProgressStream,
  total: number | undefined,
  env: Record<string, string | undefined>,
  now: () => number,
): ProgressBar | undefined {
  if (stream.isTTY !== true) return undefined;
  const colour = (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
  const started = now();
  let drawnAt = -Infinity;
  let drawnDone = -1;
  let drawn = 0;
  const line = (done: number): string => {
    const seconds = (now() - started) / 1000;
    const rate = `${Math.round(seconds > 0 ? done / seconds : 0)}/s`;
    if (total === undefined) return `verifying ${done} receipts, ${rate}`;
    const ratio = total <= 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(ratio * WIDTH);
    const bar = '#'.repeat(filled);
    const painted = colour && filled > 0 ? `${GREEN}${bar}${RESET}` : bar;
    return `verifying [${painted}${'-'.repeat(WIDTH - filled)}] ${Math.floor(ratio * 100)}% ${done}/${total} receipts, ${rate}`;
  };
  return {
    update(done) {
      const at = now();
      if (done === drawnDone || (at - drawnAt < 100 && done !== total)) return;
      drawnAt = at;
      drawnDone = done;
      const text = line(done);
      stream.write(`\r${text}`);
      drawn = Math.max(drawn, visibleLength(text));
    },
    clear() {
      if (drawn > 0) stream.write(`\r${' '.repeat(drawn)}\r`);
      drawn = 0;
    },
  };
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}
