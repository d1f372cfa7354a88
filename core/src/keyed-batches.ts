/** One ask's outcome in a batch: its value, or the error that ask alone fails with. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<A, R> {
  ask: A;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Natural batching per key, with no timer: the first ask for a key starts a batch at once; asks for
 * that key arriving while it runs wait and go together into the next one (at most `max` each), so a
 * batch is as large as the load makes it and an idle key costs no wait. `run` settles every ask of
 * its batch; if it throws, every ask of the batch fails with that error. Batches of one key run one
 * after another, never two at once; different keys run independently.
 */
export function keyedBatches<A, R>(
  max: number,
  run: (key: string, asks: readonly A[]) => Promise<readonly Settled<R>[]>,
): (key: string, ask: A) => Promise<R> {
  const queues = new Map<string, Waiting<A, R>[]>();

  async function drain(key: string, queue: Waiting<A, R>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, max);
      let outcomes: readonly Settled<R>[];
      try {
        outcomes = await run(
          key,
          batch.map((w) => w.ask),
        );
        if (outcomes.length !== batch.length) {
          throw new Error(`a batch of ${batch.length} asks settled ${outcomes.length}`);
        }
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        continue;
      }
      batch.forEach((waiting, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
    }
    queues.delete(key);
  }

  return (key, ask) =>
    new Promise<R>((resolve, reject) => {
      const running = queues.get(key);
      if (running !== undefined) {
        running.push({ ask, resolve, reject });
        return;
      }
      const queue: Waiting<A, R>[] = [{ ask, resolve, reject }];
      queues.set(key, queue);
      void drain(key, queue);
    });
}
