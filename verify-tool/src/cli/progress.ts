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
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * A progress bar on a terminal: `[████████░░░░]  42% 420,000/1,000,000 receipts  61,000/s`. Only
 * when the stream is a TTY (nothing at all otherwise, so piped output stays clean); coloured only
 * when `NO_COLOR` is unset or empty (https://no-color.org) and TERM is not `dumb`.
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
    const rate = seconds > 0 ? `  ${count(Math.round(done / seconds))}/s` : '';
    if (total === undefined || total === 0) return `verifying: ${count(done)} receipts${rate}`;
    const fraction = Math.min(1, done / total);
    const filled = Math.round(fraction * WIDTH);
    const bar = colour
      ? `${GREEN}${'█'.repeat(filled)}${RESET}${DIM}${'░'.repeat(WIDTH - filled)}${RESET}`
      : `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
    return `[${bar}] ${percent} ${count(done)}/${count(total)} receipts${rate}`;
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
