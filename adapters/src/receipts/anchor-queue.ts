/** What an anchor signs: a day file's line count and the checksum of its last line. */
export interface AnchorState {
  lineCount: number;
  headChecksum: string;
}

/**
 * Anchors written behind the appends, never in front of an answer: `mark` records a day file's
 * newest state and returns at once; one write runs at a time, each of the newest state marked for
 * its file, so an anchor never goes back to an older state and a burst of batches costs one write.
 */
export interface AnchorQueue {
  /** Records `fileName`'s newest state; states must be marked in the file's order (each newer). */
  mark(fileName: string, state: AnchorState): void;
  /**
   * Resolves once every marked state is written. A write that failed is tried once more here (and
   * with the next `mark`); if that fails too, this rejects with its error.
   */
  settle(): Promise<void>;
}

export function anchorQueue(
  write: (fileName: string, state: AnchorState) => Promise<void>,
): AnchorQueue {
  const dirty = new Map<string, AnchorState>();
  // States whose write failed, kept for the next attempt unless a newer state replaces them.
  const failed = new Map<string, { state: AnchorState; error: unknown }>();
  let running: Promise<void> | null = null;

  async function drain(): Promise<void> {
    for (let next = dirty.entries().next(); !next.done; next = dirty.entries().next()) {
      const [fileName, state] = next.value;
      dirty.delete(fileName);
      try {
        await write(fileName, state);
      } catch (error) {
        if (!dirty.has(fileName)) failed.set(fileName, { state, error });
      }
    }
    running = null;
  }

  function start(): void {
    for (const [fileName, { state }] of failed)
      if (!dirty.has(fileName)) dirty.set(fileName, state);
    failed.clear();
    running ??= drain();
  }

  return {
    mark(fileName, state) {
      dirty.set(fileName, state);
      failed.delete(fileName);
      start();
    },
    async settle() {
      await running;
      if (failed.size === 0) return;
      start();
      await running;
      const [first] = failed.values();
      if (first !== undefined) throw first.error;
    },
  };
}
