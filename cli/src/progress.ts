export interface Progress {
  update(done: number): void;
  finish(): void;
}

const silent: Progress = { update: () => {}, finish: () => {} };

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** A one-line bar on stderr, redrawn in place; nothing at all when stderr is not a terminal (logs, pipes, tests). */
export function progressBar(label: string, total: number): Progress {
  const stderr = process.stderr;
  if (!stderr.isTTY) return silent;
  const width = 30;
  let last = -1;
  const draw = (done: number) => {
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const percent = Math.floor(ratio * 100);
    if (percent === last) return;
    last = percent;
    const filled = Math.round(ratio * width);
    stderr.write(
      `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent}% ${mb(done)}/${mb(total)} MB`,
    );
  };
  return {
    update: draw,
    finish: () => {
      draw(total);
      stderr.write('\n');
    },
  };
}
