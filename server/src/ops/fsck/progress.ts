/** Where progress goes: a bar redrawn in place on a terminal's stderr, nothing anywhere else. */
export interface Progress {
  advance(receipts: number): void;
  done(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;

export const silentProgress: Progress = { advance: () => undefined, done: () => undefined };

/** A bar on `stream` (a TTY) over `total` receipts, redrawn at most ten times a second. */
export function terminalProgress(stream: NodeJS.WriteStream, total: number): Progress {
  let checked = 0;
  let last = 0;
  const draw = () => {
    const share = total === 0 ? 1 : Math.min(1, checked / total);
    const filled = Math.round(share * WIDTH);
    stream.write(
      `\rfsck [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% ` +
        `${checked.toLocaleString('en')}/${total.toLocaleString('en')} receipts`,
    );
  };
  return {
    advance(receipts) {
      checked += receipts;
      const now = Date.now();
      if (now - last >= REDRAW_MS) {
        last = now;
        draw();
      }
    },
    done() {
      draw();
      stream.write('\n');
    },
  };
}
